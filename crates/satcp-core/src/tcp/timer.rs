//! A lazily rescheduled timer. Re-arming to a later deadline costs no event:
//! the pending event fires, sees the deadline moved, and asks to be
//! scheduled again. Stale events are recognised by their generation.

use crate::time::Time;

#[derive(Clone, Debug, Default)]
pub struct Timer {
    deadline: Option<Time>,
    /// Time of the event currently in the queue for this timer, if any.
    scheduled: Option<Time>,
    generation: u32,
}

impl Timer {
    pub fn arm(&mut self, at: Time) {
        self.deadline = Some(at);
    }

    pub fn disarm(&mut self) {
        self.deadline = None;
    }

    pub fn deadline(&self) -> Option<Time> {
        self.deadline
    }

    pub fn is_armed(&self) -> bool {
        self.deadline.is_some()
    }

    /// The event the owner must put in the queue now, if any: (time, generation).
    pub fn schedule_request(&mut self) -> Option<(Time, u32)> {
        let deadline = self.deadline?;
        if self.scheduled.is_some_and(|s| s <= deadline) {
            return None;
        }
        self.generation = self.generation.wrapping_add(1);
        self.scheduled = Some(deadline);
        Some((deadline, self.generation))
    }

    /// Handles this timer's event; true when the timer has expired now.
    pub fn fire(&mut self, now: Time, generation: u32) -> bool {
        if generation != self.generation {
            return false;
        }
        self.scheduled = None;
        match self.deadline {
            Some(d) if d <= now => {
                self.deadline = None;
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rearming_later_needs_no_new_event() {
        let mut t = Timer::default();
        t.arm(100);
        let (at, g) = t.schedule_request().unwrap();
        assert_eq!(at, 100);
        t.arm(150);
        assert_eq!(t.schedule_request(), None);
        assert!(!t.fire(100, g), "deadline moved to 150");
        let (at, g) = t.schedule_request().unwrap();
        assert_eq!(at, 150);
        assert!(t.fire(150, g));
        assert!(!t.is_armed());
    }

    #[test]
    fn rearming_earlier_schedules_and_stales_the_old_event() {
        let mut t = Timer::default();
        t.arm(100);
        let (_, old) = t.schedule_request().unwrap();
        t.arm(50);
        let (at, new) = t.schedule_request().unwrap();
        assert_eq!(at, 50);
        assert!(t.fire(50, new));
        assert!(!t.fire(100, old), "stale generation");
    }
}

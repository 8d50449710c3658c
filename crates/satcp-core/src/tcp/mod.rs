//! TCP, split the way Linux splits it: the sender (sequence space, RTO,
//! options), loss recovery, congestion control, and the receiver.

pub mod cc;
pub mod rack;
pub mod receiver;
pub mod recovery;
pub mod rto;
pub mod scoreboard;
pub mod sender;
pub mod sent_log;
pub mod timer;
pub mod variant;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_cc;

//! Random streams. Every component draws from its own stream, seeded by
//! (run seed, component id), so a run is a pure function of scenario and
//! seed, and adding a flow does not change the draws another flow sees.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub type Stream = ChaCha8Rng;

/// Components that own a random stream. The id space is split by kind so
/// that ids of different kinds never collide.
#[derive(Clone, Copy, Debug)]
pub enum Component {
    /// The error process of one flow's packets on one link.
    LinkErrors { link: u32, flow: u32 },
    /// The state of one link's channel (fades, handoffs, bursts): one
    /// physical medium shared by every flow on the link.
    ChannelState { link: u32 },
    /// A link's RED drop decisions.
    Red { link: u32 },
    /// A background traffic source's sending times.
    Traffic { source: u32 },
    /// A flow's congestion controller's random decisions (CETEN-R).
    CcDecisions { flow: u32 },
}

impl Component {
    fn id(self) -> u64 {
        match self {
            Component::LinkErrors { link, flow } => (1 << 56) | ((link as u64) << 24) | flow as u64,
            Component::ChannelState { link } => (2 << 56) | link as u64,
            Component::Red { link } => (3 << 56) | link as u64,
            Component::Traffic { source } => (4 << 56) | source as u64,
            Component::CcDecisions { flow } => (5 << 56) | flow as u64,
        }
    }
}

pub fn stream(seed: u64, component: Component) -> Stream {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(component.id());
    rng
}

//! Channel models: which packets the medium corrupts. Kept free of simulator
//! types so the emulator can share them.

pub mod uniform;

pub use uniform::BitErrors;

/// The error process of one link direction.
#[derive(Clone, Debug)]
pub enum Channel {
    Clean,
    Uniform(BitErrors),
}

impl Channel {
    pub fn from_ber(ber: f64) -> Channel {
        if ber > 0.0 {
            Channel::Uniform(BitErrors::new(ber))
        } else {
            Channel::Clean
        }
    }

    /// Whether a packet of `bits` on the wire is corrupted, drawing from `rng`.
    pub fn corrupts<R: rand::Rng>(&mut self, bits: u64, rng: &mut R) -> bool {
        match self {
            Channel::Clean => false,
            Channel::Uniform(model) => model.corrupts(bits, rng),
        }
    }
}

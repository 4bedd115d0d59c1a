//! What the labs that run transformer stacks share to measure them (science.md §3-4): the
//! residual of rank collapse ([`residual`]) and the context-similarity statistics of heads
//! ([`similarity`]). The depth lab applies them to random weights, the model lab to a pretrained
//! encoder. Imports no lab.

pub mod residual;
pub mod similarity;

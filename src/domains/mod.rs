//! CLI adapters of the domains: flags, RON blocks, instance parsing.

pub mod boggle;
pub mod grid;
pub mod nonogram;
pub mod pancake;
pub mod tiles;
pub mod wordle;

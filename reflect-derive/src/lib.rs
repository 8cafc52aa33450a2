//! Procedural macros for reflective generators: `#[derive(Reflective)]` and `#[property]`.
//!
//! (Documentation of every attribute is written with the derive.)

#![warn(missing_docs)]
#![forbid(unsafe_code)]

//! The integration tests that need no process of their own, as modules of one test binary (each
//! separate test file is a binary that links the whole workspace).
//!
//! Kept as binaries of their own, beside this one:
//! - `derive_ui`, `property_ui`, `statem_ui`: trybuild cases, which build crates of their own;
//! - `panic_location`, `setup_error_quiet`: they set the process's panic hook;
//! - `reliability`, `run_loop`, `stats_visible`: they run their own binary again as a child process,
//!   by test name (and the children abort, exit or read environment variables set for them);
//! - `html_report`: it runs a headless browser as a child process;
//! - `statem`: its parallel mode races threads, and finds and shrinks the race only with cores to
//!   itself (beside the other tests of one binary, the race shows less often).
//!
//! A test added here must not touch what is global to the process: the panic hook, environment
//! variables, the current directory, exit hooks.

mod async_property;
mod cgs;
mod core_laws;
mod derive_args;
mod derive_laws;
mod derive_parts;
mod design_example;
mod distinct_property;
mod filter_laws;
mod first_run;
mod first_steps;
mod fuzz_target;
mod graft;
mod guide_interface;
mod library_example;
mod overrides;
mod property_macro;
mod property_runner;
mod replay_tokens;
mod rl_find_bug;
mod rl_learner;
mod rl_state;
mod rotate;
mod shape_pressure;
mod sizes;
mod splice;
mod statem_context;
mod statem_readme;
mod statem_shrink;
mod synth;
mod synth_workloads;
mod targeted;
mod tune_mutate;

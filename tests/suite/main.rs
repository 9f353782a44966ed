//! The integration tests, as one test binary: each release build of a test binary links the whole
//! library with link-time optimisation, so one binary instead of one per module (22) saves minutes
//! of CI. Each module is one concern; `common` holds what they share.

mod common;

mod bounded;
mod budget;
mod certify;
mod cli;
mod cli_nqueens;
mod cli_pictures;
mod count;
mod count_table;
mod engine;
mod faults;
mod hostile;
mod layers;
mod ledger;
mod nqueens;
mod pdf;
mod pictures;
mod plan;
mod plan_cost;
mod readback;
mod readme;
mod refusals;
mod results;
mod robust;
mod signals;
mod slurm;
mod spreadsheet;
mod start;
mod table;
mod trace;

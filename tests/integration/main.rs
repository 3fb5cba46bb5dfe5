//! The integration tests: one binary, so the suite links once. Each module
//! covers one part of the tool through its public API or the real binary.

mod analysis_cli;
mod analysis_known;
mod analysis_props;
mod ci_workflow;
mod design_cli;
mod diff_cli;
mod engine_cli;
mod engine_concurrency;
mod engine_properties;
mod engine_published;
mod engine_scenarios;
mod engine_value_stability;
mod exactness_boards;
mod exactness_modular;
mod exactness_props;
mod foundation_cli;
mod foundation_invalid;
mod foundation_props;
mod output_cli;
mod play_odds;
mod report_browser;
mod report_cli;
mod robust_cli;
mod robust_fuzz_regressions;
mod schema_cli;
mod sim_check_props;
mod sim_cli;
mod snapshots;
mod sparse_agreement;
mod sparse_cli;
mod validate_ci;

//! PLACEHOLDER: the human engine is being written.

use super::{Engine, EngineInfo, EngineOptions, Limits, Outcome};
use crate::puzzle::Puzzle;

pub static INFO: EngineInfo = EngineInfo {
    name: "human",
    summary: "",
    source: "",
    nodes: "",
    counters: "",
    max_side: None,
    capabilities: "",
    make,
    variants: super::no_variants,
};

fn make(options: &EngineOptions) -> Result<Box<dyn Engine>, String> {
    options.allow_only("human", &[])?;
    Ok(Box::new(Placeholder))
}

struct Placeholder;

impl Engine for Placeholder {
    fn solve(&mut self, _puzzle: &Puzzle, _limits: &Limits) -> Outcome {
        Outcome::unsupported("not written yet")
    }
}

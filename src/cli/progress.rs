//! The progress bar of `sudolab run` on a terminal: the runner reports how many jobs have
//! their row ([`Progress`]), and this draws it on stderr.

use crate::experiment::runner::Progress;
use std::sync::OnceLock;

/// A bar of jobs done out of the jobs of the run, with the time taken and an estimate of the
/// time left; drawn from [`Progress::start`] on.
#[derive(Default)]
pub struct Bar(OnceLock<indicatif::ProgressBar>);

impl Progress for Bar {
    fn start(&self, total: u64) {
        let bar = indicatif::ProgressBar::new(total);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} jobs, eta {eta}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        // A second start keeps the first bar.
        let _ = self.0.set(bar);
    }

    fn set_position(&self, done: u64) {
        if let Some(bar) = self.0.get() {
            bar.set_position(done);
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.0.get() {
            bar.finish_and_clear();
        }
    }

    fn abandon(&self) {
        if let Some(bar) = self.0.get() {
            bar.abandon();
        }
    }
}

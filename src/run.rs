//! Running a domain's instances through executors, the same way for
//! `frontier run` and `frontier solve`.

use frontier_core::{ExecutorConfig, Limits, SearchOptions};

use crate::config::{resolve_data_path, Instances};
use crate::progress::search_bar;
use crate::registry::{CliDomain, Instance};
use crate::report::InstanceReport;
use crate::CliError;

/// Options of a run that are not part of the domain.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Limits for every search.
    pub limits: Limits,
    /// Draw progress bars for long searches.
    pub progress: bool,
}

/// Prepares the domain once, then solves every instance with every
/// executor, handing each report to `sink` as soon as it exists.
pub fn run_all<C: CliDomain>(
    config: &C,
    instances: &Instances,
    executors: &[ExecutorConfig],
    options: &RunOptions,
    sink: &mut dyn FnMut(InstanceReport) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let instances = match instances {
        Instances::Inline(texts) => texts
            .iter()
            .enumerate()
            .map(|(i, text)| Instance {
                id: (i + 1).to_string(),
                text: text.clone(),
                known_cost: None,
            })
            .collect(),
        Instances::File { path, first, ids } => {
            let mut all = config.read_instances(&resolve_data_path(path))?;
            if let Some(ids) = ids {
                if let Some(missing) = ids.iter().find(|id| !all.iter().any(|i| &i.id == *id)) {
                    return Err(CliError::Input(format!(
                        "{}: no instance with id '{missing}'",
                        path.display()
                    )));
                }
                all.retain(|i| ids.contains(&i.id));
            }
            if let Some(n) = first {
                all.truncate(*n);
            }
            all
        }
    };
    if instances.is_empty() {
        return Err(CliError::Input("no instances to solve".into()));
    }
    let prepared = config.prepare(executors)?;
    for instance in &instances {
        for executor in executors {
            let search = SearchOptions {
                limits: options.limits,
                progress: options.progress.then(|| {
                    search_bar(format!("{} #{} {}", C::NAME, instance.id, executor.name()))
                }),
            };
            sink(config.solve(&prepared, instance, executor, &search)?)?;
        }
    }
    Ok(())
}

//! Running a domain's instances through executors, the same way for
//! `frontier run` and `frontier solve`: parameter grids, repeats with the
//! median reported, and rows already done skipped.

use std::collections::{BTreeMap, HashMap};

use frontier_core::executors::{Param, ParamValue};
use frontier_core::search::Order;
use frontier_core::{ExecutorConfig, Limits, SearchOptions};

use crate::config::{resolve_data_path, GridValue, Instances};
use crate::plugin::{Instance, Plugin};
use crate::progress::search_bar;
use crate::report::{InstanceReport, RowKey};
use crate::CliError;

/// Options of a run that are not part of the domain.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Limits for every search.
    pub limits: Limits,
    /// Draw progress bars for long searches.
    pub progress: bool,
}

/// One row's executor: its config and the search order it runs with.
#[derive(Clone, Debug, PartialEq)]
pub struct Planned {
    /// The executor and its parameters.
    pub executor: ExecutorConfig,
    /// Weight, anytime, beam, shortcut, window.
    pub order: Order,
}

impl Planned {
    /// The row's executor name: the executor's with the order's suffix
    /// (`hda-4-hash-w1.5-anytime`).
    pub fn name(&self) -> String {
        self.executor.name() + &self.order.suffix()
    }

    /// `executor` with `order`, refused where the executor does not take
    /// an option the order sets (`weight` for `ida`).
    pub fn new(executor: &ExecutorConfig, order: Order) -> Result<Planned, CliError> {
        let planned = Planned {
            executor: executor.clone(),
            order,
        };
        // Configs set the order directly, flags and grids through the
        // parameter table: both meet here.
        if let Some(radius) = order.shortcut {
            frontier_core::search::order::shortcut_radius(u64::from(radius))?;
        }
        if let Some(length) = order.window {
            frontier_core::search::order::window_length(u64::from(length))?;
        }
        let default = Order::default();
        let set = [
            (Param::Weight, order.weight != default.weight),
            (Param::Anytime, order.anytime),
            (Param::Beam, order.beam.is_some()),
            (Param::Shortcut, order.shortcut.is_some()),
            (Param::Window, order.window.is_some()),
        ];
        if let Some((param, _)) = set
            .iter()
            .find(|(p, set)| *set && !planned.executor.takes(*p))
        {
            return Err(CliError::Input(format!(
                "{} applies to {} only, not {}",
                param.key(),
                frontier_core::executors::taking(*param),
                executor.kind()
            )));
        }
        Ok(planned)
    }
}

/// What to run: instances × executors × every combination of the grid.
#[derive(Clone, Copy, Debug)]
pub struct Plan<'a> {
    /// Where the instances come from.
    pub instances: &'a Instances,
    /// The executors, before grid parameters are applied.
    pub executors: &'a [ExecutorConfig],
    /// How the best-first executors rank and stop (weight, anytime,
    /// beam) before grid parameters; A\*'s by default.
    pub order: Order,
    /// Parameter values to sweep (see `config::Experiment`).
    pub grid: &'a BTreeMap<String, Vec<GridValue>>,
    /// Runs per row; the median by time is reported.
    pub repeat: usize,
    /// Rows already in the output file, not run again.
    pub done: &'a HashMap<RowKey, crate::results::KeptRow>,
}

/// One assignment of grid parameters: (key, value), sorted by key.
type Assignment = Vec<(String, GridValue)>;

/// Every combination of the given keys' values (one empty assignment when
/// there are no keys).
fn combinations(grid: &BTreeMap<String, Vec<GridValue>>, keys: &[&String]) -> Vec<Assignment> {
    let mut all: Vec<Assignment> = vec![Vec::new()];
    for key in keys {
        all = all
            .into_iter()
            .flat_map(|partial| {
                grid[*key].iter().map(move |value| {
                    let mut next = partial.clone();
                    next.push(((*key).clone(), value.clone()));
                    next
                })
            })
            .collect();
    }
    all
}

/// `executor` with grid parameter `key` set; `None` when it has no such
/// parameter (it then runs once, whatever the grid says). Which executor
/// takes which key is `frontier_core::executors::EXECUTORS`.
pub fn executor_with(
    executor: &Planned,
    key: &str,
    value: &GridValue,
) -> Result<Option<Planned>, CliError> {
    let value = match value {
        GridValue::Count(n) => ParamValue::Count(*n),
        GridValue::Number(x) => ParamValue::Number(*x),
        GridValue::Text(t) => ParamValue::Text(t.clone()),
        GridValue::Flag(b) => ParamValue::Flag(*b),
    };
    let mut changed = executor.clone();
    let taken = match Param::from_key(key).filter(|p| p.is_order()) {
        Some(param) if executor.executor.takes(param) => {
            param.set_order(&mut changed.order, &value)
        }
        Some(_) => Ok(false),
        None => changed.executor.set(key, &value),
    };
    match taken {
        Ok(true) => Ok(Some(changed)),
        Ok(false) => Ok(None),
        Err(e) => Err(CliError::Input(format!("grid: {e}"))),
    }
}

/// The instances a plan names, read and filtered.
fn load_instances<C: Plugin>(config: &C, instances: &Instances) -> Result<Vec<Instance>, CliError> {
    let instances = match instances {
        Instances::Inline(texts) => texts
            .iter()
            .enumerate()
            .map(|(i, text)| Instance {
                id: (i + 1).to_string(),
                text: text.clone(),
                ..Instance::default()
            })
            .collect(),
        Instances::Random { size, count, seed } => {
            // Every instance is made before the first search: a count
            // beyond this is a typo that would fill the memory first.
            const MOST: usize = 1_000_000;
            if *count > MOST {
                return Err(CliError::Input(format!(
                    "Random: count {count}: at most {MOST} instances; split the experiment"
                )));
            }
            let mut rng = frontier_core::rng::SplitMix64::new(*seed);
            (1..=*count)
                .map(|i| {
                    Ok(Instance {
                        id: i.to_string(),
                        text: config.random_instance(*size, &mut rng)?,
                        ..Instance::default()
                    })
                })
                .collect::<Result<Vec<_>, CliError>>()?
        }
        Instances::File { path, first, ids } => {
            let mut all = config.read_instances(&resolve_data_path(path)?)?;
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
    Ok(instances)
}

/// Which grid keys the domain takes and which the executors take; a key
/// that neither takes, or that both take, is an error naming it.
fn split_grid<'g, C: Plugin>(
    config: &C,
    executors: &[Planned],
    grid: &'g BTreeMap<String, Vec<GridValue>>,
) -> Result<(Vec<&'g String>, Vec<&'g String>), CliError> {
    let (mut domain_keys, mut executor_keys) = (Vec::new(), Vec::new());
    for (key, values) in grid {
        let Some(first) = values.first() else {
            return Err(CliError::Input(format!("grid: {key} has no values")));
        };
        let in_domain = config.clone().set_param(key, first)?;
        let mut in_executors = false;
        for executor in executors {
            in_executors |= executor_with(executor, key, first)?.is_some();
        }
        match (in_domain, in_executors) {
            (true, false) => domain_keys.push(key),
            (false, true) => executor_keys.push(key),
            (true, true) => {
                return Err(CliError::Input(format!(
                    "grid: {key} is a parameter of both the domain and an executor"
                )))
            }
            (false, false) => {
                return Err(CliError::Input(format!(
                    "grid: {key} is not a parameter of {} or of any executor listed",
                    C::NAME
                )))
            }
        }
    }
    Ok((domain_keys, executor_keys))
}

fn describe(assignment: &[(String, GridValue)]) -> String {
    let mut parts: Vec<String> = assignment.iter().map(|(k, v)| format!("{k}={v}")).collect();
    parts.sort();
    parts.join(" ")
}

/// The most rows one grid may expand to; a config asking for more is
/// refused before anything runs rather than left to run for ever.
const MAX_GRID_ROWS: u128 = 100_000;

/// One domain variant of a plan (its grid parameters applied) with the
/// executor variants that run on it, each with its parameters described.
type Variant<C> = (C, Vec<(Planned, String)>);

/// Every domain variant and executor row a plan expands to, with every grid
/// key and value checked; runs nothing and reads no instance.
fn variants<C: Plugin>(config: &C, plan: &Plan<'_>) -> Result<Vec<Variant<C>>, CliError> {
    let executors = plan
        .executors
        .iter()
        .map(|e| Planned::new(e, plan.order))
        .collect::<Result<Vec<_>, _>>()?;
    let (domain_keys, executor_keys) = split_grid(config, &executors, plan.grid)?;
    let rows_asked: u128 = plan
        .grid
        .values()
        .map(|v| v.len() as u128)
        .try_fold(plan.executors.len().max(1) as u128, |n, k| n.checked_mul(k))
        .unwrap_or(u128::MAX);
    if rows_asked > MAX_GRID_ROWS {
        return Err(CliError::Input(format!(
            "grid: the executors and grid values make over {MAX_GRID_ROWS} combinations per instance; split the experiment"
        )));
    }
    let mut all = Vec::new();
    for domain_params in combinations(plan.grid, &domain_keys) {
        let mut config = config.clone();
        for (key, value) in &domain_params {
            config.set_param(key, value)?;
        }
        // Rows of this domain variant: executor, its parameters, their names.
        let mut rows: Vec<(Planned, String)> = Vec::new();
        for executor in &executors {
            let mut applicable = Vec::new();
            for &key in &executor_keys {
                if executor_with(executor, key, &plan.grid[key][0])?.is_some() {
                    applicable.push(key);
                }
            }
            for executor_params in combinations(plan.grid, &applicable) {
                let mut variant = executor.clone();
                for (key, value) in &executor_params {
                    // Checked above: this executor takes every applicable key.
                    variant = executor_with(&variant, key, value)?.unwrap_or(variant);
                }
                check_partition::<C>(&variant.executor)?;
                if variant.order != Order::default() && !C::BEST_FIRST {
                    return Err(CliError::Input(format!(
                        "{} solves with its own method: weight, anytime, beam, shortcut and window \
                         apply to domains searched by the best-first executors (tiles, pancake)",
                        C::NAME
                    )));
                }
                let mut params = domain_params.clone();
                params.extend(executor_params);
                rows.push((variant, describe(&params)));
            }
        }
        all.push((config, rows));
    }
    Ok(all)
}

/// Refuses a partition that `C` does not know, naming the ones it does:
/// a name no plugin resolves must not run as some other partition.
fn check_partition<C: Plugin>(executor: &ExecutorConfig) -> Result<(), CliError> {
    match executor.partition() {
        Some(name) if !C::PARTITIONS.contains(&name) => Err(CliError::Input(format!(
            "{} has no partition '{name}' (it has {})",
            C::NAME,
            C::PARTITIONS.join(", ")
        ))),
        _ => Ok(()),
    }
}

/// `executor` with its checkpoint keyed by what decides the answer in
/// `config` (the start state keys it too): a checkpoint from another goal
/// or heuristic is refused, never resumed.
fn keyed<C: Plugin>(executor: &ExecutorConfig, config: &C) -> ExecutorConfig {
    let context = format!("domain={}\n{}", C::NAME, config.answer_params());
    match executor {
        ExecutorConfig::Ida(ida) => ExecutorConfig::Ida(frontier_core::search::ida::IdaConfig {
            context,
            ..ida.clone()
        }),
        ExecutorConfig::GpuIda(ida) => {
            ExecutorConfig::GpuIda(frontier_core::search::gpu::GpuIdaConfig {
                context,
                ..ida.clone()
            })
        }
        other => other.clone(),
    }
}

/// Checks a plan as [`run_all`] would before its first search: every grid
/// key and value, for every domain variant.
pub fn check<C: Plugin>(config: &C, plan: &Plan<'_>) -> Result<(), CliError> {
    variants(config, plan).map(drop)
}

/// Prepares the domain once per combination of its grid parameters, then
/// solves every instance with every executor and executor parameter
/// combination, handing each report to `sink` as soon as it exists.
pub fn run_all<C: Plugin>(
    config: &C,
    plan: &Plan<'_>,
    options: &RunOptions,
    sink: &mut dyn FnMut(InstanceReport) -> Result<(), CliError>,
) -> Result<(), CliError> {
    for (config, rows) in variants(config, plan)? {
        // Read per variant: what an instance file states may depend on a
        // domain parameter (Wordle's hard-mode totals).
        let instances = load_instances(&config, plan.instances)?;
        // A kept row stands for its instance only if it answered the same
        // text and agrees with what the input states, as a fresh one must.
        for instance in &instances {
            for (executor, params) in &rows {
                let key = (instance.id.clone(), executor.name(), params.clone());
                if let Some(conflict) = plan.done.get(&key).and_then(|k| k.conflict(instance)) {
                    return Err(CliError::Input(conflict));
                }
            }
        }
        let pending = |instance: &Instance, (executor, params): &(Planned, String)| {
            !plan
                .done
                .contains_key(&(instance.id.clone(), executor.name(), params.clone()))
        };
        if !instances.iter().any(|i| rows.iter().any(|r| pending(i, r))) {
            continue;
        }
        if let Some(why) = instances.iter().find_map(|i| i.missing.clone()) {
            return Err(CliError::Input(why));
        }
        let executors: Vec<ExecutorConfig> = rows.iter().map(|(e, _)| e.executor.clone()).collect();
        let prepared = config.prepare(&executors)?;
        for instance in &instances {
            // Sequential A*'s expansions, for the search overhead of the
            // parallel executors after it.
            let mut sequential = None;
            for row in rows.iter().filter(|r| pending(instance, r)) {
                let (executor, params) = row;
                let keyed_executor = keyed(&executor.executor, &config);
                let mut runs = Vec::with_capacity(plan.repeat.max(1));
                for _ in 0..plan.repeat.max(1) {
                    let search = SearchOptions {
                        limits: options.limits,
                        progress: options.progress.then(|| {
                            search_bar(format!("{} #{} {}", C::NAME, instance.id, executor.name()))
                        }),
                        order: executor.order,
                    };
                    runs.push(config.solve(&prepared, instance, &keyed_executor, &search)?);
                }
                runs.sort_by(|a, b| a.stats.seconds.total_cmp(&b.stats.seconds));
                let mut report = runs.swap_remove((runs.len() - 1) / 2);
                report.params = params.clone();
                if executor.order != Order::default() {
                    report.executor += &executor.order.suffix();
                    report.weight = Some(executor.order.weight.to_string());
                }
                report.planned = executor.name();
                report.runs = plan.repeat.max(1);
                if executor.executor == ExecutorConfig::Astar
                    && executor.order.is_optimal()
                    && report.solved
                {
                    sequential = Some(report.stats.expanded);
                } else if let Some(base) = sequential.filter(|&b| b > 0) {
                    report.stats.search_overhead = Some(report.stats.expanded as f64 / base as f64);
                }
                sink(report)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_cover_every_pair_of_values_once() {
        let grid: BTreeMap<String, Vec<GridValue>> = [
            (
                "a".to_string(),
                vec![GridValue::Count(1), GridValue::Count(2)],
            ),
            (
                "b".to_string(),
                vec![
                    GridValue::Text("x".into()),
                    GridValue::Text("y".into()),
                    GridValue::Flag(true),
                ],
            ),
        ]
        .into();
        let keys: Vec<&String> = grid.keys().collect();
        let all = combinations(&grid, &keys);
        assert_eq!(all.len(), 6);
        let names: std::collections::HashSet<String> = all.iter().map(|a| describe(a)).collect();
        assert_eq!(names.len(), 6);
        assert!(names.contains("a=2 b=y"));
        assert_eq!(combinations(&grid, &[]), vec![Vec::new()]);
    }

    #[test]
    fn executors_take_only_their_own_parameters() {
        let planned = |e: ExecutorConfig| Planned::new(&e, Order::default()).unwrap();
        let hda = planned(ExecutorConfig::Hda(Default::default()));
        let four = executor_with(&hda, "threads", &GridValue::Count(4)).unwrap();
        assert_eq!(four.map(|e| e.name()), Some("hda-4-hash".to_string()));
        let astar = planned(ExecutorConfig::Astar);
        assert!(executor_with(&astar, "threads", &GridValue::Count(4))
            .unwrap()
            .is_none());
        let weighted = executor_with(&astar, "weight", &GridValue::Number(1.5)).unwrap();
        assert_eq!(weighted.map(|e| e.name()), Some("astar-w1.5".to_string()));
        let ida = planned(ExecutorConfig::Ida(Default::default()));
        assert!(executor_with(&ida, "weight", &GridValue::Number(1.5))
            .unwrap()
            .is_none());
        let e = Planned::new(
            &ExecutorConfig::Ida(Default::default()),
            Order {
                anytime: true,
                ..Order::default()
            },
        )
        .unwrap_err();
        // The registry names the executors that take it (gpu in GPU builds).
        let e = e.to_string();
        assert!(
            e.contains("anytime applies to astar, hda") && e.ends_with("not ida"),
            "{e}"
        );
        let wrong = executor_with(&hda, "threads", &GridValue::Text("four".into()));
        assert!(wrong
            .unwrap_err()
            .to_string()
            .contains("threads takes numbers"));
        let multi = planned(ExecutorConfig::MultiGpu(Default::default()));
        let two = executor_with(&multi, "gpus", &GridValue::Count(2)).unwrap();
        assert_eq!(two.map(|e| e.name()), Some("multi-gpu-2-hash".to_string()));
        assert!(executor_with(&multi, "gpus", &GridValue::Count(0)).is_err());
    }
}

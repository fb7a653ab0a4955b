//! The registered plugins behind one object type, so that a domain is
//! chosen by name at run time: from `frontier solve <name>`, from a RON
//! `domain: Name(...)` block, from `frontier <name> <command>`.

use std::cell::RefCell;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use frontier_core::ExecutorConfig;
use serde::de::{DeserializeSeed, EnumAccess, VariantAccess, Visitor};

use crate::plugin::{Context, Plugin};
use crate::report::InstanceReport;
use crate::run::{Plan, RunOptions};
use crate::CliError;

/// Where every report row goes, as it is made.
pub type Sink<'a> = dyn FnMut(InstanceReport) -> Result<(), CliError> + 'a;

/// A plugin with its type erased: what the command line does with a domain
/// it knows only by name.
pub(crate) trait Registered: Send + Sync {
    fn name(&self) -> &'static str;
    fn partitions(&self) -> &'static [&'static str];
    /// `solve <name> <instance> [the plugin's flags]`.
    fn solve_command(&self) -> clap::Command;
    /// Solves the instance in `matches` (from [`Registered::solve_command`]).
    fn solve(
        &self,
        matches: &clap::ArgMatches,
        executor: &ExecutorConfig,
        order: frontier_core::search::Order,
        options: &RunOptions,
        sink: &mut Sink<'_>,
    ) -> Result<(), CliError>;
    /// Reads the plugin's RON block.
    fn read_block(
        &self,
        block: &mut dyn erased_serde::Deserializer<'_>,
    ) -> Result<Box<dyn Configured>, erased_serde::Error>;
    fn commands(&self) -> Option<clap::Command>;
    fn run_command(&self, matches: &clap::ArgMatches, context: &Context) -> Result<(), CliError>;
}

/// A domain with its parameters read (a RON block, or `solve`'s flags).
pub trait Configured: fmt::Debug + Send + Sync {
    /// Runs every row of `plan`, handing each report to `sink`.
    fn run(
        &self,
        plan: &Plan<'_>,
        options: &RunOptions,
        sink: &mut Sink<'_>,
    ) -> Result<(), CliError>;
    /// What decides the answers, for a results file's first line.
    fn fingerprint(&self) -> Vec<(String, String)>;
    /// Checks `plan`'s grid against the domain and executors, running
    /// nothing and reading no instance.
    fn check(&self, plan: &Plan<'_>) -> Result<(), CliError>;
}

impl<P: Plugin> Configured for P {
    fn run(
        &self,
        plan: &Plan<'_>,
        options: &RunOptions,
        sink: &mut Sink<'_>,
    ) -> Result<(), CliError> {
        crate::run::run_all(self, plan, options, sink)
    }

    fn fingerprint(&self) -> Vec<(String, String)> {
        vec![
            ("domain".to_string(), P::NAME.to_string()),
            ("params".to_string(), self.answer_params()),
        ]
    }

    fn check(&self, plan: &Plan<'_>) -> Result<(), CliError> {
        crate::run::check(self, plan)
    }
}

/// The [`Registered`] of plugin `P`.
pub(crate) struct Entry<P>(PhantomData<fn() -> P>);

impl<P> Entry<P> {
    pub(crate) fn new() -> Self {
        Entry(PhantomData)
    }
}

/// The id of `solve`'s positional argument.
const INSTANCE: &str = "instance";

impl<P: Plugin> Registered for Entry<P> {
    fn name(&self) -> &'static str {
        P::NAME
    }

    fn partitions(&self) -> &'static [&'static str] {
        P::PARTITIONS
    }

    fn solve_command(&self) -> clap::Command {
        // `about` after `augment_args`, which would set the type's doc comment.
        P::augment_args(
            clap::Command::new(P::NAME).arg(
                clap::Arg::new(INSTANCE)
                    .required(true)
                    .value_name("INSTANCE")
                    .help("The instance, in the domain's notation (see the domain's docs)"),
            ),
        )
        .about(P::ABOUT)
    }

    fn solve(
        &self,
        matches: &clap::ArgMatches,
        executor: &ExecutorConfig,
        order: frontier_core::search::Order,
        options: &RunOptions,
        sink: &mut Sink<'_>,
    ) -> Result<(), CliError> {
        let params = P::from_arg_matches(matches).map_err(|e| CliError::Input(e.to_string()))?;
        let instance = matches
            .get_one::<String>(INSTANCE)
            .cloned()
            .ok_or_else(|| CliError::Input("solve: give the instance".into()))?;
        let instances = crate::config::Instances::Inline(vec![instance]);
        let grid = Default::default();
        let done = Default::default();
        let plan = Plan {
            instances: &instances,
            executors: std::slice::from_ref(executor),
            order,
            grid: &grid,
            repeat: 1,
            done: &done,
        };
        crate::run::run_all(&params, &plan, options, sink)
    }

    fn read_block(
        &self,
        block: &mut dyn erased_serde::Deserializer<'_>,
    ) -> Result<Box<dyn Configured>, erased_serde::Error> {
        let params: P = erased_serde::deserialize(block)?;
        Ok(Box::new(params))
    }

    fn commands(&self) -> Option<clap::Command> {
        P::commands()
    }

    fn run_command(&self, matches: &clap::ArgMatches, context: &Context) -> Result<(), CliError> {
        P::run_command(matches, context)
    }
}

/// The name a RON block uses for a plugin: `NAME` with its first letter in
/// capitals (`tiles` → `Tiles`), as the variants of an enum are spelled.
pub(crate) fn block_name(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

thread_local! {
    /// The plugins a RON `domain:` block is read against, set for the
    /// length of one [`with_plugins`] call: serde's derive gives
    /// `Experiment`'s fields no way to carry them.
    static PLUGINS: RefCell<Option<Vec<Arc<dyn Registered>>>> = const { RefCell::new(None) };
}

/// Runs `parse` with `plugins` as the ones a `domain:` block may name.
pub(crate) fn with_plugins<T>(plugins: &[Arc<dyn Registered>], parse: impl FnOnce() -> T) -> T {
    let previous = PLUGINS.with(|p| p.replace(Some(plugins.to_vec())));
    let result = parse();
    PLUGINS.with(|p| *p.borrow_mut() = previous);
    result
}

/// An experiment's `domain: Name(...)` block, read by the plugin
/// registered under `Name`.
pub struct DomainBlock(pub Box<dyn Configured>);

impl fmt::Debug for DomainBlock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<'de> serde::Deserialize<'de> for DomainBlock {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let plugins = PLUGINS.with(|p| p.borrow().clone()).unwrap_or_default();
        deserializer.deserialize_enum("Domain", &[], BlockVisitor { plugins })
    }
}

struct BlockVisitor {
    plugins: Vec<Arc<dyn Registered>>,
}

impl<'de> Visitor<'de> for BlockVisitor {
    type Value = DomainBlock;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a domain block: Name(field: value, …)")
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<DomainBlock, A::Error> {
        let (VariantName(name), block) = data.variant::<VariantName>()?;
        let Some(plugin) = self
            .plugins
            .iter()
            .find(|p| p.name().eq_ignore_ascii_case(&name))
        else {
            let known: Vec<String> = self.plugins.iter().map(|p| block_name(p.name())).collect();
            return Err(serde::de::Error::custom(format!(
                "unknown domain `{name}`; registered: {}",
                known.join(", ")
            )));
        };
        block.newtype_variant_seed(BlockSeed(plugin.clone()))
    }
}

/// Reads one block with the plugin it names.
struct BlockSeed(Arc<dyn Registered>);

impl<'de> DeserializeSeed<'de> for BlockSeed {
    type Value = DomainBlock;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<DomainBlock, D::Error> {
        let mut erased = <dyn erased_serde::Deserializer>::erase(deserializer);
        self.0
            .read_block(&mut erased)
            .map(DomainBlock)
            .map_err(serde::de::Error::custom)
    }
}

/// An enum variant's name, read as an identifier (a `String` would ask
/// RON for a quoted string).
struct VariantName(String);

impl<'de> serde::Deserialize<'de> for VariantName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Name;
        impl Visitor<'_> for Name {
            type Value = VariantName;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a domain name")
            }
            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<VariantName, E> {
                Ok(VariantName(name.to_string()))
            }
        }
        deserializer.deserialize_identifier(Name)
    }
}

//! `frontier plot`: charts of a results file (the CSV or JSON lines that
//! `frontier run` writes) as PNGs — a cactus plot (instances solved against
//! time, per executor), expansions per second by executor, speedup by
//! thread or GPU count where the file has several counts of one executor,
//! and, from JSON lines whose rows improved their solution (weighted and
//! anytime searches), cost against time with the proven lower bound.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use plotters::coord::ranged1d::{Ranged, SegmentValue};
use plotters::prelude::*;

use crate::plugin::read_file;
use crate::CliError;

/// One row of a results file, as the charts need it.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Instance id.
    pub instance: String,
    /// Executor and grid parameters, as a series name.
    pub series: String,
    /// Executor name alone.
    pub executor: String,
    /// Grid parameters (`threads=4 heuristic=7-8`).
    pub params: String,
    /// Whether the row found a solution (`optimal`).
    pub solved: bool,
    /// Wall time of the search.
    pub seconds: f64,
    /// Expansions per second.
    pub rate: f64,
    /// Each improved solution (seconds, cost, lower bound), from JSON
    /// results (`stats.improvements`); empty from CSV.
    pub improvements: Vec<(f64, f64, f64)>,
}

const WIDTH: u32 = 1200;
const HEIGHT: u32 = 760;
const FONT: &str = "sans-serif";

/// Reads a results file: CSV with `frontier run`'s header, or JSON lines.
pub fn read_rows(path: &Path) -> Result<Vec<Row>, CliError> {
    let text = read_file(path)?;
    let bad = |line: usize, why: &str| CliError::Input(format!("{}:{line}: {why}", path.display()));
    let series = |executor: &str, params: &str| {
        if params.is_empty() {
            executor.to_string()
        } else {
            format!("{executor} {params}")
        }
    };
    // NaN or infinite axis ranges made the chart library loop for ever.
    let measure = |line: usize, value: f64| {
        if value.is_finite() && value >= 0.0 {
            Ok(value)
        } else {
            Err(bad(
                line,
                &format!("{value} is not a time or a rate (finite, 0 or more)"),
            ))
        }
    };
    let mut rows = Vec::new();
    // JSON lines by their name (`.json`, `.jsonl`) or, under any other name,
    // by their first character: a CSV of `frontier run` starts with `#` or
    // its header.
    if crate::results::named_json_lines(path) || text.trim_start().starts_with('{') {
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let v: serde_json::Value =
                serde_json::from_str(line).map_err(|e| bad(i + 1, &format!("not JSON: {e}")))?;
            // The first line names the experiment (see `results`): no row.
            if v.get("frontier_results").is_some() {
                continue;
            }
            let text = |k: &str| {
                v.get(k)
                    .and_then(|x| x.as_str())
                    .unwrap_or_default()
                    .to_string()
            };
            let stat = |k: &str| v["stats"].get(k).and_then(|x| x.as_f64());
            let (executor, params) = (text("executor"), text("params"));
            let improvements = v["stats"]
                .get("improvements")
                .and_then(|i| i.as_array())
                .map(|steps| {
                    steps
                        .iter()
                        .filter_map(|step| {
                            let at = |k: &str| step.get(k).and_then(|x| x.as_f64());
                            Some((at("seconds")?, at("cost")?, at("lower_bound")?))
                        })
                        .filter(|&(t, c, l)| [t, c, l].iter().all(|x| x.is_finite() && *x >= 0.0))
                        .collect()
                })
                .unwrap_or_default();
            // The row's own bound closes the trace (a search stopped by a
            // limit raised it after its last improvement).
            let mut improvements: Vec<(f64, f64, f64)> = improvements;
            let last = (
                stat("seconds"),
                v.get("cost").and_then(|c| c.as_f64()),
                v.get("lower_bound").and_then(|l| l.as_f64()),
            );
            if let (false, (Some(t), Some(c), Some(l))) = (improvements.is_empty(), last) {
                if [t, c, l].iter().all(|x| x.is_finite() && *x >= 0.0) {
                    improvements.push((t, c, l));
                }
            }
            rows.push(Row {
                instance: text("instance"),
                series: series(&executor, &params),
                solved: v.get("solved").and_then(|s| s.as_bool()).unwrap_or(false),
                seconds: measure(
                    i + 1,
                    stat("seconds").ok_or_else(|| bad(i + 1, "no stats.seconds"))?,
                )?,
                rate: measure(i + 1, stat("expansions_per_second").unwrap_or(0.0))?,
                executor,
                params,
                improvements,
            });
        }
    } else {
        // Lines behind `#` (the first names the experiment) are no rows.
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.starts_with('#'));
        let header: Vec<String> = lines
            .next()
            .map(|(_, l)| crate::report::split_csv(l))
            .unwrap_or_default();
        let column = |name: &str| {
            header
                .iter()
                .position(|h| h == name)
                .ok_or_else(|| bad(1, &format!("no `{name}` column (not a `frontier run` CSV)")))
        };
        let (inst, exec, params, status, seconds, rate) = (
            column("instance")?,
            column("executor")?,
            column("params")?,
            column("status")?,
            column("seconds")?,
            column("exp/s")?,
        );
        for (i, line) in lines.filter(|(_, l)| !l.trim().is_empty()) {
            let f = crate::report::split_csv(line);
            if f.len() != header.len() {
                return Err(bad(i + 1, "wrong number of fields"));
            }
            let number = |k: usize| {
                let value = f[k]
                    .parse::<f64>()
                    .map_err(|_| bad(i + 1, &format!("`{}` is not a number", f[k])))?;
                measure(i + 1, value)
            };
            rows.push(Row {
                instance: f[inst].clone(),
                series: series(&f[exec], &f[params]),
                executor: f[exec].clone(),
                params: f[params].clone(),
                // A weighted or anytime row that found a solution is
                // `bounded`: solved, not proven optimal.
                solved: f[status] == "optimal" || f[status].starts_with("bounded"),
                seconds: number(seconds)?,
                rate: number(rate)?,
                improvements: Vec::new(),
            });
        }
    }
    if rows.is_empty() {
        return Err(CliError::Input(format!(
            "{}: no result rows",
            path.display()
        )));
    }
    Ok(rows)
}

fn draw_error(e: impl std::fmt::Display) -> CliError {
    CliError::Input(format!("drawing a chart: {e}"))
}

/// Draws every chart the rows allow into `dir`, named after `stem`;
/// returns the files written.
pub fn plot(rows: &[Row], dir: &Path, stem: &str) -> Result<Vec<PathBuf>, CliError> {
    // Registering the same embedded font again only replaces it.
    let _ = plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
    let mut written = Vec::new();
    let mut save = |name: &str, draw: &dyn Fn(&mut [u8]) -> Result<(), CliError>| {
        let mut pixels = vec![255u8; (WIDTH * HEIGHT * 3) as usize];
        draw(&mut pixels)?;
        let path = dir.join(format!("{stem}-{name}.png"));
        write_png(&path, &pixels)?;
        written.push(path);
        Ok::<(), CliError>(())
    };
    save("cactus", &|buf| cactus(rows, buf))?;
    save("rate", &|buf| rates(rows, buf))?;
    let speedups = speedups(rows);
    if !speedups.is_empty() {
        save("speedup", &|buf| speedup_chart(&speedups, buf))?;
    }
    if rows.iter().any(|r| !r.improvements.is_empty()) {
        save("anytime", &|buf| anytime(rows, buf))?;
    }
    Ok(written)
}

/// The longest list of rows the anytime chart draws: past it the legend
/// outgrows the chart.
const MOST_ANYTIME_ROWS: usize = 12;

/// Cost (steps at each improvement) and proven lower bound (dashed) against
/// time, one colour a row, for the rows with improvements.
fn anytime(rows: &[Row], buf: &mut [u8]) -> Result<(), CliError> {
    let shown: Vec<&Row> = rows
        .iter()
        .filter(|r| !r.improvements.is_empty())
        .take(MOST_ANYTIME_ROWS)
        .collect();
    let steps = |r: &Row, pick: fn(&(f64, f64, f64)) -> f64| -> Vec<(f64, f64)> {
        // Each value holds until the next improvement, then to the end.
        let mut points = Vec::new();
        for (i, step) in r.improvements.iter().enumerate() {
            let until = r
                .improvements
                .get(i + 1)
                .map_or(r.seconds.max(step.0), |next| next.0);
            points.push((step.0.max(1e-4), pick(step)));
            points.push((until.max(1e-4), pick(step)));
        }
        points
    };
    let all = shown.iter().flat_map(|r| r.improvements.iter());
    let (t_low, t_high, low, high) = all.fold(
        (f64::MAX, f64::MIN, f64::MAX, f64::MIN),
        |(tl, th, l, h), &(t, c, lower)| (tl.min(t), th.max(t), l.min(lower), h.max(c)),
    );
    let t_high = shown.iter().map(|r| r.seconds).fold(t_high, f64::max);
    let (t_low, t_high) = whole_decades(t_low.max(1e-4) / 1.5, t_high.max(1e-3) * 1.5);
    let (low, high) = (low * 0.95, high * 1.05 + 1.0);
    let root = BitMapBackend::with_buffer(buf, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Solution cost (solid) and proven lower bound (dashed) over time",
            (FONT, 24),
        )
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d((t_low..t_high).log_scale(), low..high)
        .map_err(draw_error)?;
    chart
        .configure_mesh()
        .x_desc("seconds")
        .y_desc("cost")
        .label_style((FONT, 16))
        .draw()
        .map_err(draw_error)?;
    let costs: Vec<(String, Vec<(f64, f64)>)> = shown
        .iter()
        .map(|r| (format!("#{} {}", r.instance, r.series), steps(r, |s| s.1)))
        .collect();
    draw_curves(&mut chart, &costs, 2)?;
    for (i, r) in shown.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(DashedLineSeries::new(
                steps(r, |s| s.2),
                6,
                4,
                color.stroke_width(1),
            ))
            .map_err(draw_error)?;
    }
    root.present().map_err(draw_error)
}

/// A logarithmic axis's range widened to whole powers of ten, at least one
/// decade apart. plotters labels a log axis only at the powers of ten inside its
/// range (and at steps between them), so a range such as 1.2-5.9 s, inside one
/// decade, would be drawn with no labels at all. The ends sit a hair outside
/// the powers of ten, so that plotters' own rounding (it finds the first power
/// by logarithms) does not skip the power at either end.
fn whole_decades(low: f64, high: f64) -> (f64, f64) {
    let first = low.log10().floor();
    let last = high.log10().ceil().max(first + 1.0);
    (
        10f64.powf(first) * (1.0 - 1e-9),
        10f64.powf(last) * (1.0 + 1e-9),
    )
}

/// A count axis's label at `value`: the whole numbers only, since plotters
/// places ticks at halves too when the count is small ("1.5 instances").
fn count_label(value: &f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        String::new()
    }
}

/// Series in first-seen order with their rows.
fn by_series(rows: &[Row]) -> Vec<(String, Vec<&Row>)> {
    let mut order: Vec<(String, Vec<&Row>)> = Vec::new();
    for row in rows {
        match order.iter_mut().find(|(s, _)| *s == row.series) {
            Some((_, list)) => list.push(row),
            None => order.push((row.series.clone(), vec![row])),
        }
    }
    order
}

/// Instances solved (x) against the time each took, sorted (y, log).
fn cactus(rows: &[Row], buf: &mut [u8]) -> Result<(), CliError> {
    let series = by_series(rows);
    let curves: Vec<(String, Vec<(f64, f64)>)> = series
        .iter()
        .map(|(name, rows)| {
            let mut times: Vec<f64> = rows
                .iter()
                .filter(|r| r.solved)
                .map(|r| r.seconds.max(1e-4))
                .collect();
            times.sort_by(f64::total_cmp);
            let points = times
                .iter()
                .enumerate()
                .map(|(i, &t)| ((i + 1) as f64, t))
                .collect();
            (name.clone(), points)
        })
        .collect();
    let most = curves
        .iter()
        .map(|(_, p)| p.len())
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let times = curves.iter().flat_map(|(_, p)| p.iter().map(|&(_, t)| t));
    let (low, high) = times.fold((f64::MAX, f64::MIN), |(l, h), t| (l.min(t), h.max(t)));
    let (low, high) = if low > high {
        (1e-3, 1.0)
    } else {
        whole_decades(low / 1.5, high * 1.5)
    };
    let root = BitMapBackend::with_buffer(buf, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Instances solved within a time", (FONT, 28))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d(0f64..most + 0.5, (low..high).log_scale())
        .map_err(draw_error)?;
    chart
        .configure_mesh()
        .x_desc("instances solved")
        .x_label_formatter(&count_label)
        .y_desc("seconds per instance")
        .label_style((FONT, 16))
        .draw()
        .map_err(draw_error)?;
    draw_curves(&mut chart, &curves, 2)?;
    root.present().map_err(draw_error)
}

/// Mean expansions per second of each series, as bars.
fn rates(rows: &[Row], buf: &mut [u8]) -> Result<(), CliError> {
    let bars: Vec<(String, f64)> = by_series(rows)
        .into_iter()
        .map(|(name, rows)| {
            let mean = rows.iter().map(|r| r.rate).sum::<f64>() / rows.len() as f64;
            (name, mean)
        })
        .collect();
    let top = bars.iter().map(|b| b.1).fold(0.0, f64::max).max(1.0) * 1.15;
    let root = BitMapBackend::with_buffer(buf, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    let names: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption("Expansions per second (mean over instances)", (FONT, 28))
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(100)
        // A segmented range of 0..n has n + 1 slots: the last one is the end.
        .build_cartesian_2d(
            (0..bars.len().saturating_sub(1)).into_segmented(),
            0f64..top,
        )
        .map_err(draw_error)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(bars.len())
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
                names.get(*i).cloned().unwrap_or_default()
            }
            SegmentValue::Last => String::new(),
        })
        .y_label_formatter(&|y| format!("{:.3e}", y))
        .y_desc("expansions/s")
        .label_style((FONT, 14))
        .draw()
        .map_err(draw_error)?;
    chart
        .draw_series(bars.iter().enumerate().map(|(i, (_, v))| {
            let color = Palette99::pick(i).to_rgba();
            let mut bar = Rectangle::new(
                [
                    (SegmentValue::Exact(i), 0.0),
                    (SegmentValue::Exact(i + 1), *v),
                ],
                color.filled(),
            );
            bar.set_margin(0, 0, 12, 12);
            bar
        }))
        .map_err(draw_error)?;
    root.present().map_err(draw_error)
}

/// The thread or GPU count of a row, and its series with the count taken
/// out (`hda-N-split`), when it has one.
fn counted(row: &Row) -> Option<(String, u32)> {
    let mut rest = Vec::new();
    let mut count = None;
    for part in row.params.split_whitespace() {
        match part.split_once('=') {
            Some(("threads" | "gpus", n)) => count = n.parse().ok(),
            _ => rest.push(part),
        }
    }
    // The executor table says whose names carry a count (`hda-4-split`).
    let mut executor = row.executor.clone();
    if let Some((family, n)) = frontier_core::executors::counted_name(&row.executor) {
        count = count.or(Some(n));
        executor = family;
    }
    let count = count?;
    let name = if rest.is_empty() {
        executor
    } else {
        format!("{executor} {}", rest.join(" "))
    };
    Some((name, count))
}

/// Per family of counted series: (count, mean over instances of the rate
/// over the smallest count's rate on the same instance).
fn speedups(rows: &[Row]) -> Vec<(String, Vec<(f64, f64)>)> {
    let mut families: BTreeMap<String, BTreeMap<u32, BTreeMap<String, f64>>> = BTreeMap::new();
    for row in rows.iter().filter(|r| r.rate > 0.0) {
        if let Some((name, count)) = counted(row) {
            families
                .entry(name)
                .or_default()
                .entry(count)
                .or_default()
                .insert(row.instance.clone(), row.rate);
        }
    }
    families
        .into_iter()
        .filter(|(_, counts)| counts.len() > 1)
        .filter_map(|(name, counts)| {
            let (_, base) = counts.iter().next()?;
            let points: Vec<(f64, f64)> = counts
                .iter()
                .filter_map(|(&count, rates)| {
                    let ratios: Vec<f64> = rates
                        .iter()
                        .filter_map(|(instance, rate)| base.get(instance).map(|b| rate / b))
                        .collect();
                    (!ratios.is_empty()).then(|| {
                        (
                            f64::from(count),
                            ratios.iter().sum::<f64>() / ratios.len() as f64,
                        )
                    })
                })
                .collect();
            (points.len() > 1).then_some((name, points))
        })
        .collect()
}

/// Speedup against the count, with the ideal (linear) line.
fn speedup_chart(families: &[(String, Vec<(f64, f64)>)], buf: &mut [u8]) -> Result<(), CliError> {
    let most = families
        .iter()
        .flat_map(|(_, p)| p.iter().map(|&(n, s)| n.max(s)))
        .fold(1.0, f64::max)
        * 1.1;
    let root = BitMapBackend::with_buffer(buf, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Speedup by thread / GPU count (expansion rate over the fewest)",
            (FONT, 28),
        )
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..most, 0f64..most)
        .map_err(draw_error)?;
    chart
        .configure_mesh()
        .x_desc("threads or GPUs")
        .x_label_formatter(&count_label)
        .y_desc("speedup")
        .label_style((FONT, 16))
        .draw()
        .map_err(draw_error)?;
    chart
        .draw_series(LineSeries::new(
            vec![(0.0, 0.0), (most, most)],
            BLACK.mix(0.3),
        ))
        .map_err(draw_error)?
        .label("ideal")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.mix(0.3)));
    draw_curves(&mut chart, families, 3)?;
    root.present().map_err(draw_error)
}

/// Draws each named curve as a line with dots, `width` pixels wide, and
/// the legend of every labelled series in the chart.
fn draw_curves<'a, X, Y>(
    chart: &mut ChartContext<'a, BitMapBackend<'a>, Cartesian2d<X, Y>>,
    curves: &[(String, Vec<(f64, f64)>)],
    width: u32,
) -> Result<(), CliError>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    for (i, (name, points)) in curves.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(width)))
            .map_err(draw_error)?
            .label(name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(width))
            });
        chart
            .draw_series(
                points
                    .iter()
                    .map(|&p| Circle::new(p, width + 1, color.filled())),
            )
            .map_err(draw_error)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font((FONT, 16))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(draw_error)?;
    Ok(())
}

/// Writes an RGB buffer of the chart size as a PNG: encoded in memory,
/// then written whole through a temporary file, so a full disk leaves no
/// truncated picture and no temporary file.
fn write_png(path: &Path, pixels: &[u8]) -> Result<(), CliError> {
    let encoding = |e: png::EncodingError| CliError::Input(format!("{}: {e}", path.display()));
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, WIDTH, HEIGHT);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(encoding)?;
        writer.write_image_data(pixels).map_err(encoding)?;
        writer.finish().map_err(encoding)?;
    }
    frontier_core::files::write_atomic(path, &bytes).map_err(|source| CliError::Io {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(instance: &str, executor: &str, params: &str, rate: f64) -> Row {
        Row {
            instance: instance.into(),
            series: format!("{executor} {params}"),
            executor: executor.into(),
            params: params.into(),
            solved: true,
            seconds: 1.0,
            rate,
            improvements: Vec::new(),
        }
    }

    #[test]
    fn speedup_is_the_mean_rate_ratio_over_the_fewest_threads() {
        let rows = [
            row("1", "hda-1-hash", "threads=1", 10.0),
            row("2", "hda-1-hash", "threads=1", 20.0),
            row("1", "hda-4-hash", "threads=4", 30.0),
            row("2", "hda-4-hash", "threads=4", 80.0),
            row("1", "astar", "", 12.0),
        ];
        let families = speedups(&rows);
        assert_eq!(families.len(), 1);
        assert_eq!(families[0].0, "hda-N-hash");
        assert_eq!(families[0].1, vec![(1.0, 1.0), (4.0, 3.5)]);
    }

    #[test]
    fn log_axes_span_whole_decades_so_that_they_have_labels() {
        for (low, high) in [
            (1.15, 5.9),
            (0.0021, 0.0029),
            (2e-4, 0.6),
            (10.0, 10.0),
            (3.0, 4000.0),
        ] {
            let (from, to) = whole_decades(low, high);
            assert!(from <= low && to >= high, "{low}-{high}: {from}-{to}");
            assert!(to / from >= 9.999, "{low}-{high}: {from}-{to}");
            let axis: LogCoord<f64> = (from..to).log_scale().into();
            let labels = axis.key_points(10usize);
            assert!(labels.len() >= 2, "{low}-{high}: labels {labels:?}");
        }
        // The range before widening: plotters finds no label inside one decade.
        let narrow: LogCoord<f64> = (1.15..5.9).log_scale().into();
        assert!(narrow.key_points(10usize).is_empty());
    }

    #[test]
    fn a_count_axis_labels_whole_numbers_only() {
        // The cactus's range for four instances: plotters ticks it at halves.
        let axis: plotters::coord::types::RangedCoordf64 = (0f64..4.5).into();
        let ticks = axis.key_points(10usize);
        assert!(ticks.iter().any(|t| t.fract() != 0.0), "{ticks:?}");
        let labels: Vec<String> = ticks
            .iter()
            .map(count_label)
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(labels, ["0", "1", "2", "3", "4"]);
    }

    #[test]
    fn counts_come_from_executor_names_without_a_grid() {
        let r = row("1", "multi-gpu-2-split", "heuristic=7-8", 1.0);
        assert_eq!(
            counted(&r),
            Some(("multi-gpu-N-split heuristic=7-8".into(), 2))
        );
        assert_eq!(counted(&row("1", "gpu", "", 1.0)), None);
    }
}

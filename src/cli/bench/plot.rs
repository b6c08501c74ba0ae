//! `moo bench --plot`: the histograms of a benchmark side by side, as an SVG or PNG file.

use std::path::Path;

use anyhow::Context;
use moo_core::{Evaluation, Rules};

use crate::cli::output::write_file;
use crate::cli::UsageError;

/// Draws the histograms of `results` into the image file `path`.
pub fn write(path: &Path, rules: &Rules, results: &[Evaluation]) -> anyhow::Result<()> {
    let image = draw_plot(path, rules, results)
        .with_context(|| format!("cannot draw the plot {}", path.display()))?;
    write_file(path, &image)
}

/// The image formats `--plot` writes, told by the file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

/// The image format of a plot file, from its extension.
pub fn format(path: &Path) -> anyhow::Result<Format> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .as_deref()
    {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        _ => Err(UsageError(format!(
            "cannot tell the image format of {}: name the file .svg or .png",
            path.display()
        ))
        .into()),
    }
}

/// The font of plot labels, shipped inside the binary so plots look the same on every machine and
/// need no system font library (DejaVu Sans; licence in `assets/fonts`).
static FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");

/// Pixels of one strategy's panel.
const PANEL: (u32, u32) = (360, 320);

/// Draws one histogram panel per strategy, side by side, into the bytes of an image file.
///
/// The image is drawn in memory and written by the caller in one go, like a tree file, so a full
/// disk leaves no half-drawn file and its error is the system's, in words.
fn draw_plot(path: &Path, rules: &Rules, results: &[Evaluation]) -> anyhow::Result<Vec<u8>> {
    use plotters::prelude::*;
    plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
        .map_err(|_| anyhow::anyhow!("the built-in font is unreadable"))?;
    let size = (PANEL.0 * results.len() as u32, PANEL.1 + 40);
    let title = format!("{}: games won in n guesses", rules.describe());
    match format(path)? {
        Format::Svg => {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
                panels(&root, &title, results)?;
                root.present()?;
            }
            Ok(svg.into_bytes())
        }
        Format::Png => {
            let mut pixels = vec![0u8; size.0 as usize * size.1 as usize * 3];
            {
                let root = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
                panels(&root, &title, results)?;
                root.present()?;
            }
            encode_png(size, &pixels)
        }
    }
}

/// RGB pixels as a PNG file.
fn encode_png((width, height): (u32, u32), pixels: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder
        .write_header()
        .context("cannot encode the PNG image")?;
    writer
        .write_image_data(pixels)
        .context("cannot encode the PNG image")?;
    writer.finish().context("cannot encode the PNG image")?;
    Ok(bytes)
}

fn panels<DB: plotters::prelude::DrawingBackend>(
    root: &plotters::prelude::DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    results: &[Evaluation],
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    use plotters::prelude::*;
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| anyhow::anyhow!("{e}");
    root.fill(&WHITE).map_err(err)?;
    let root = root.titled(title, ("sans-serif", 20)).map_err(err)?;
    for (area, r) in root.split_evenly((1, results.len())).iter().zip(results) {
        let counts = r.histogram.counts();
        let bins = counts.len().max(1) as u32;
        let top = counts.iter().copied().max().unwrap_or(0).max(1);
        let mut chart = ChartBuilder::on(area)
            .caption(
                format!("{} (average {:.3})", r.strategy, r.histogram.average()),
                ("sans-serif", 15),
            )
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(50)
            .build_cartesian_2d((1..bins + 1).into_segmented(), 0..top + top / 10 + 1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc("guesses")
            .y_desc("games")
            .label_style(("sans-serif", 11))
            .draw()
            .map_err(err)?;
        chart
            .draw_series(
                Histogram::vertical(&chart)
                    .style(RGBColor(60, 110, 180).filled())
                    .margin(if bins > 40 { 0 } else { 2 })
                    .data(counts.iter().enumerate().map(|(i, &c)| (i as u32 + 1, c))),
            )
            .map_err(err)?;
    }
    Ok(())
}

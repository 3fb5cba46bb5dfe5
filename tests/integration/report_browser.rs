//! The HTML report seen in a real browser: headless Chromium renders the
//! report of the built-in board (with its sensitivity section), a variant board and a 2,500-square board at
//! 1280 and 390 CSS pixels, and a probe script reads from the DOM that
//! nothing is wider than the viewport, every chart has its title and axis
//! labels in readable text, and the page made no request. A screenshot at
//! each width must not be blank.
//!
//! Headless Chromium will not make its window narrower than 500 pixels, so
//! the report is shown in an `<iframe>` of the width under test (its own
//! viewport, as a phone's screen), inside a host page.
//!
//! Chromium is found as `$SNAKELADDER_CHROMIUM`, `chromium` or
//! `chromium-browser`. Without one the test prints why and passes, unless
//! `SNAKELADDER_REQUIRE_BROWSER` is set (`.ci/run` sets it once it has
//! installed Chromium), where a missing browser fails.

use snakeladder::Board;
use snakeladder::{Analysis, Options};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Rendered chart text smaller than this many CSS pixels is not readable on
/// a phone (the page's body text is 16 px).
const MIN_CHART_TEXT_PX: f64 = 11.0;

/// Appended to the page before `</body>`: measures the laid-out page and
/// writes what it found as JSON into `<pre id="probe">`.
const PROBE: &str = r#"<script>
(function(){
  var vw = document.documentElement.clientWidth, wide = [];
  document.querySelectorAll("body *").forEach(function(e){
    var r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return;
    // A table scrolls inside its own box: the box must fit, not the table.
    if (e.closest(".scroll") && !e.classList.contains("scroll")) return;
    if (r.left < -1 || r.right > vw + 1)
      wide.push(e.tagName + "." + (e.getAttribute("class") || "") + " " + Math.round(r.left) + ".." + Math.round(r.right));
  });
  var charts = [];
  document.querySelectorAll("svg.chart").forEach(function(s){
    var r = s.getBoundingClientRect();
    if (r.width === 0) return;
    var scale = s.getScreenCTM().a, texts = [], smallest = 1e9, clipped = [];
    s.querySelectorAll("text").forEach(function(t){
      var size = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (t.textContent.trim() === "") return;
      texts.push(t.textContent.trim());
      smallest = Math.min(smallest, size);
      var b = t.getBoundingClientRect();
      if (b.left < r.left - 1 || b.right > r.right + 1 || b.top < r.top - 1 || b.bottom > r.bottom + 1)
        clipped.push(t.textContent.trim());
    });
    var title = s.querySelector("title");
    charts.push({title: title ? title.textContent : "", texts: texts, smallest: smallest, clipped: clipped});
  });
  // A tap on square 2 shows its figures below the board.
  var square = document.querySelector('.sl-sq[data-square="2"]'), info = document.getElementById("board-info");
  if (square) square.dispatchEvent(new MouseEvent("click", {bubbles: true}));
  var p = document.createElement("pre");
  p.id = "probe";
  p.textContent = JSON.stringify({
    viewport: vw,
    scroll_width: document.documentElement.scrollWidth,
    wide: wide,
    charts: charts,
    boards: document.querySelectorAll("svg.sl-board").length,
    tapped: info ? info.textContent : "",
    resources: performance.getEntriesByType("resource").map(function(r){ return r.name; })
  });
  document.body.appendChild(p);
})();
</script>"#;

fn chromium() -> Option<PathBuf> {
    let candidates = std::env::var_os("SNAKELADDER_CHROMIUM")
        .map(PathBuf::from)
        .into_iter()
        .chain(["chromium", "chromium-browser"].map(PathBuf::from));
    for c in candidates {
        let ok = Command::new(&c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(c);
        }
    }
    None
}

/// A host page showing `report` in a frame `width` × 900 pixels; the
/// frame's probe result, if any, is copied into the host's DOM.
fn host(report: &str, width: u32) -> String {
    let srcdoc = report.replace('&', "&amp;").replace('"', "&quot;");
    format!(
        "<!DOCTYPE html><html><head><style>body{{margin:0}}iframe{{border:0;display:block}}</style></head><body>\
<iframe id=\"f\" width=\"{width}\" height=\"900\" srcdoc=\"{srcdoc}\"></iframe><pre id=\"copy\"></pre>\
<script>document.getElementById('f').addEventListener('load',function(){{var p=this.contentDocument.getElementById('probe');\
document.getElementById('copy').textContent=p?p.textContent:'no probe';}});</script></body></html>"
    )
}

fn browse(chrome: &Path, window: u32, what: &[&str], page: &Path) -> Vec<u8> {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--disable-extensions",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--window-size={window},900"))
        .args(what)
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[derive(serde::Deserialize, Debug)]
struct Probe {
    viewport: u32,
    scroll_width: u32,
    wide: Vec<String>,
    charts: Vec<Chart>,
    boards: usize,
    tapped: String,
    resources: Vec<String>,
}

#[derive(serde::Deserialize, Debug)]
struct Chart {
    title: String,
    texts: Vec<String>,
    smallest: f64,
    clipped: Vec<String>,
}

fn probe(dom: &str) -> Probe {
    let start = dom.find("<pre id=\"copy\">").expect("the host page") + 15;
    let end = start + dom[start..].find("</pre>").unwrap();
    let json = dom[start..end]
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&json).unwrap()
}

/// A screenshot is blank when nearly every pixel has one colour.
fn assert_not_blank(png_path: &Path) {
    let decoder = png::Decoder::new(std::fs::File::open(png_path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let bytes = &buf[..info.buffer_size()];
    let channels = info.color_type.samples();
    let first = &bytes[..channels];
    let differing = bytes
        .chunks(channels)
        .filter(|px| px[..3.min(channels)] != first[..3.min(channels)])
        .count();
    let pixels = bytes.len() / channels;
    assert!(
        differing * 20 > pixels,
        "{}: only {differing} of {pixels} pixels differ from the background",
        png_path.display()
    );
}

/// The report of `board`, with the sensitivity section when asked.
fn page_of(board: &Board, dir: &Path, name: &str, levers: bool) -> (PathBuf, usize) {
    let analysis = Analysis::new(board, &Options::default()).unwrap();
    let sensitivity = levers.then(|| snakeladder::design::sensitivity(board, true).unwrap());
    let mut report = snakeladder_render::Report::new(board, &analysis);
    if let Some(s) = &sensitivity {
        report = report.with_sensitivity(s);
    }
    let html = report.html();
    let size = html.len();
    let path = dir.join(format!("{name}.html"));
    std::fs::write(&path, &html).unwrap();
    (path, size)
}

fn large_board() -> Board {
    let ladders: Vec<String> = (20..2400)
        .step_by(60)
        .map(|i| format!("[{i}, {}]", i + 70))
        .collect();
    let snakes: Vec<String> = (40..2400)
        .step_by(60)
        .map(|i| format!("[{}, {}]", i + 45, i - 10))
        .collect();
    Board::from_json_str(&format!(
        r#"{{"name": "2,500 squares", "squares": 2500, "ladders": [{}], "snakes": [{}]}}"#,
        ladders.join(","),
        snakes.join(",")
    ))
    .unwrap()
}

#[test]
fn reports_render_in_chromium_at_desktop_and_phone_widths() {
    let Some(chrome) = chromium() else {
        if std::env::var_os("SNAKELADDER_REQUIRE_BROWSER").is_some() {
            panic!("SNAKELADDER_REQUIRE_BROWSER is set but no Chromium was found");
        }
        eprintln!(
            "skipped: no Chromium found (set SNAKELADDER_CHROMIUM, or install Debian's chromium; .ci/run does)"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let variant = Board::from_path(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/boards/variant-two-dice.json"
    ))
    .unwrap();
    let boards = [
        ("builtin", Board::builtin_default(), 300_000, true),
        ("variant", variant, 300_000, false),
        ("large", large_board(), 5_000_000, false),
    ];
    for (name, board, max_bytes, levers) in boards {
        let (page, size) = page_of(&board, dir.path(), name, levers);
        assert!(size < max_bytes, "{name}: {size} bytes");
        let html = std::fs::read_to_string(&page).unwrap();
        let probed = html.replace("</body>", &format!("{PROBE}</body>"));
        for width in [1280, 390] {
            let probe_host = dir.path().join(format!("{name}-{width}-probe.html"));
            std::fs::write(&probe_host, host(&probed, width)).unwrap();
            let shot_host = dir.path().join(format!("{name}-{width}-shot.html"));
            std::fs::write(&shot_host, host(&html, width)).unwrap();
            let dom =
                String::from_utf8(browse(&chrome, width, &["--dump-dom"], &probe_host)).unwrap();
            let p = probe(&dom);
            let at = format!("{name} at {width} px");
            assert_eq!(p.viewport, width, "{at}: the window sets the viewport");
            assert!(
                p.scroll_width <= width,
                "{at}: page {} wide",
                p.scroll_width
            );
            assert!(
                p.wide.is_empty(),
                "{at}: wider than the viewport: {:?}",
                p.wide
            );
            assert!(p.resources.is_empty(), "{at}: requests {:?}", p.resources);
            assert_eq!(p.boards, 1, "{at}: the board is drawn");
            assert!(
                p.tapped.starts_with("square 2: ")
                    && p.tapped.contains("rests a game · P(ever rests there) "),
                "{at}: a tap on square 2 shows {:?}",
                p.tapped
            );
            let charts = if levers { 4 } else { 3 };
            assert_eq!(
                p.charts.len(),
                charts,
                "{at}: one visible drawing per chart"
            );
            for c in &p.charts {
                assert!(!c.title.is_empty(), "{at}: a chart without a title");
                assert!(
                    c.texts.contains(&c.title),
                    "{at}: {} shows its title",
                    c.title
                );
                assert!(
                    c.clipped.is_empty(),
                    "{at}: {} cuts off {:?}",
                    c.title,
                    c.clipped
                );
                assert!(
                    c.smallest >= MIN_CHART_TEXT_PX,
                    "{at}: {} has text of {:.1} px",
                    c.title,
                    c.smallest
                );
            }
            let axes = |c: &Chart, labels: &[&str]| {
                labels
                    .iter()
                    .all(|l| c.texts.iter().any(|t| t.starts_with(l)))
            };
            assert!(
                axes(&p.charts[0], &["turns t", "P(T = t)", "P(T ≤ t)"]),
                "{at}: length axes {:?}",
                p.charts[0].texts
            );
            assert!(axes(&p.charts[1], &["percentage points from fair"]), "{at}");
            assert!(axes(&p.charts[2], &["expected uses"]), "{at}");
            if levers {
                assert!(axes(&p.charts[3], &["change of the mean"]), "{at}");
            }

            let shot = dir.path().join(format!("{name}-{width}.png"));
            browse(
                &chrome,
                width,
                &[&format!("--screenshot={}", shot.display())],
                &shot_host,
            );
            assert_not_blank(&shot);
            // To look at them: SNAKELADDER_SCREENSHOTS=dir cargo test ...
            if let Some(keep) = std::env::var_os("SNAKELADDER_SCREENSHOTS") {
                std::fs::copy(&shot, Path::new(&keep).join(format!("{name}-{width}.png"))).unwrap();
            }
        }
    }
}

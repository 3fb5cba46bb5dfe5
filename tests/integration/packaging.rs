//! The workspace's `rust-version` is a promise to users: a toolchain that
//! old builds every crate. Cargo refuses a dependency that declares a newer
//! one, so the promise holds only while no locked dependency does
//! (docs/packaging.md). Standard-library items newer than it are caught by
//! clippy's `incompatible_msrv` lint, which CI denies.

use serde_json::Value;
use std::process::Command;

/// `major.minor` of a `rust-version` field (`"1.89"`, `"1.89.0"`).
fn minor_version(v: &str) -> Option<(u32, u32)> {
    let mut parts = v.split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

/// `cargo metadata` of the workspace, from the lock file and the local
/// registry cache only (`cargo test` has just built every crate in it).
fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

#[test]
fn every_locked_dependency_builds_on_the_declared_rust_version() {
    let meta = metadata();
    let members: Vec<&str> = meta["workspace_members"]
        .as_array()
        .expect("workspace members")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let packages = meta["packages"].as_array().expect("packages");
    let declared: Vec<(&str, Option<&str>)> = packages
        .iter()
        .filter(|p| members.contains(&p["id"].as_str().unwrap_or_default()))
        .map(|p| (p["name"].as_str().unwrap(), p["rust_version"].as_str()))
        .collect();
    assert_eq!(declared.len(), members.len(), "every member found");
    // One rust-version, declared by every member (from the workspace).
    let ours = declared[0]
        .1
        .expect("the workspace declares a rust-version");
    for (name, v) in &declared {
        assert_eq!(*v, Some(ours), "{name} declares another rust-version");
    }
    let ours = minor_version(ours).expect("rust-version is major.minor");

    let newer: Vec<String> = packages
        .iter()
        .filter(|p| !members.contains(&p["id"].as_str().unwrap_or_default()))
        .filter_map(|p| {
            let v = p["rust_version"].as_str()?;
            let (name, version) = (p["name"].as_str()?, p["version"].as_str()?);
            (minor_version(v)? > ours).then(|| format!("{name} {version} needs {v}"))
        })
        .collect();
    assert!(
        newer.is_empty(),
        "rust-version {}.{} is declared, but these locked dependencies need a newer \
         toolchain (raise rust-version, or pin an older release):\n{}",
        ours.0,
        ours.1,
        newer.join("\n")
    );
    // The check has something to check: most crates declare a version.
    let with_version = packages
        .iter()
        .filter(|p| p["rust_version"].is_string())
        .count();
    assert!(
        with_version > 50,
        "only {with_version} packages declare a rust-version"
    );
}

#[test]
fn versions_compare_by_major_then_minor() {
    assert_eq!(minor_version("1.89"), Some((1, 89)));
    assert_eq!(minor_version("1.89.0"), Some((1, 89)));
    assert!(minor_version("1.9").unwrap() < minor_version("1.85").unwrap());
    assert_eq!(minor_version("1"), None);
}

/// What `cargo package --list` puts in the published crate of `package`.
fn package_list(package: &str) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "package",
            "--list",
            "--allow-dirty",
            "--offline",
            "-p",
            package,
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo package runs");
    assert!(
        out.status.success(),
        "cargo package -p {package} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("file names are UTF-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_published_crate_packages_its_sources_readme_and_licenses_only() {
    let meta = metadata();
    let members: Vec<&str> = meta["workspace_members"]
        .as_array()
        .expect("workspace members")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let published: Vec<&str> = meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter(|p| members.contains(&p["id"].as_str().unwrap_or_default()))
        // `publish = false` reads as an empty list of registries.
        .filter(|p| p["publish"].as_array().is_none_or(|r| !r.is_empty()))
        .filter_map(|p| p["name"].as_str())
        .collect();
    // The core, the renderer, the designer's server and the command; the
    // Python package goes to PyPI instead.
    assert_eq!(published.len(), 4, "published crates: {published:?}");
    for package in published {
        let files = package_list(package);
        for needed in ["Cargo.toml", "README.md", "LICENSE-MIT", "LICENSE-APACHE"] {
            assert!(
                files.iter().any(|f| f == needed),
                "{package} ships no {needed}: {files:?}"
            );
        }
        let stray: Vec<&String> = files
            .iter()
            .filter(|f| {
                let top = f.split('/').next().unwrap_or_default();
                !matches!(top, "src" | "benches" | "boards")
                    && !matches!(
                        f.as_str(),
                        "Cargo.toml"
                            | "Cargo.toml.orig"
                            | "Cargo.lock"
                            | ".cargo_vcs_info.json"
                            | "README.md"
                            | "LICENSE-MIT"
                            | "LICENSE-APACHE"
                    )
            })
            .collect();
        assert!(stray.is_empty(), "{package} would publish {stray:?}");
    }
}

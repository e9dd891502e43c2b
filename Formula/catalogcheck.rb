# Homebrew formula for catalogcheck's tagged source (https://docs.brew.sh/Formula-Cookbook).
# Homebrew installs formulae from taps only (Homebrew/brew#18371), so put it into one:
#   a release:   the release workflow attaches this formula with the tag's source archive and its sha256 filled in
#                (scripts/brew-formula --url … --sha256 …) as catalogcheck.rb; the README puts it into a local tap.
#   a checkout:  scripts/brew-install (scripts/brew-formula --local: a source archive of HEAD with its real
#                sha256, in the local tap local/catalogcheck).
# The url and sha256 below are the version this commit is; the sha256 is a placeholder until the tag exists, so
# this file is a template: install one of the two above.
# .ci/run checks it with `ruby -c` and that it names every system library Package.swift needs.
class Catalogcheck < Formula
  desc "Fails your build when products.yml and the App Store / Google Play catalogs disagree"
  homepage "https://github.com/catalogcheck/catalogcheck"
  url "https://github.com/catalogcheck/catalogcheck/archive/refs/tags/v1.0.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  license "Apache-2.0"
  head "https://github.com/catalogcheck/catalogcheck.git", branch: "main"

  # Package.swift's system libraries: libxml2 (part of macOS; Homebrew's on Linux) and libyaml, found with
  # pkg-config. Swift 6 builds it: Xcode's on macOS, Homebrew's swift on Linux.
  depends_on xcode: ["16.0", :build]
  depends_on "pkgconf" => :build
  depends_on "libyaml"

  uses_from_macos "swift" => :build
  uses_from_macos "libxml2"

  def install
    # --version prints the commit it was built from; a source archive has no .git, so it is written here
    # (scripts/release does the same for the release archives).
    commit = "v#{version}" # the tag; scripts/brew-formula --local writes the checkout's commit here
    inreplace "Sources/catalogcheck/Support/BuildCommit.swift",
              'static let id = "unknown"', "static let id = \"#{commit}\""
    system "swift", "build", "--disable-sandbox", "--configuration", "release", "--product", "catalogcheck"
    bin.install ".build/release/catalogcheck"
    generate_completions_from_executable(bin/"catalogcheck", "--generate-completion-script")
  end

  test do
    assert_match "#{version} (commit ", shell_output("#{bin}/catalogcheck --version")
    (testpath/"products.yml").write <<~YAML
      version: 1
      products:
        com.example.coins.100:
          type: consumable
          name: 100 Coins
          price: 0.99 USD
    YAML
    (testpath/"app.plist").write <<~XML
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><array><string>com.example.coins.100</string></array></plist>
    XML
    system bin/"catalogcheck", "check", "--config", "products.yml", "--store", "app.plist", "--as-of", "2026-01-01"
  end
end

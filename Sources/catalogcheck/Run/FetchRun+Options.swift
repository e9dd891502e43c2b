extension FetchOptions {
    /// The plain values `FetchRun.run` needs, apart from the property wrappers. Here in `Run/`, beside the
    /// pipeline, so the option groups need nothing from the pipelines that read them (DESIGN.md §9).
    var settings: FetchRun {
        FetchRun(output: output, quiet: quiet, resume: resume, retryBaseDelayMs: retryBaseDelayMs,
                 requestTimeoutMs: requestTimeoutMs)
    }
}

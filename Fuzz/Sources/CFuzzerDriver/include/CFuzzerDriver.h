#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (FuzzerDriver.cpp), linked by -sanitize=fuzzer.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

/// Runs libFuzzer with the process's arguments. SwiftPM links a Swift executable's own main on Linux (it renames
/// it and aliases `main` to it), so libFuzzer's main is never used: the Swift main calls the driver instead.
int catalogcheck_fuzz_main(int argc, char **argv, int (*callback)(const uint8_t *data, size_t size));

#endif

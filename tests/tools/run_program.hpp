// Runs a program through the shell for the command-line tests, with the given
// standard input, and collects its exit code, standard output and error.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace sparts::test {

struct ProgramRun {
    int exit_code = -1;
    std::string out;
    std::string err;
};

inline std::string read_whole(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_whole(const std::filesystem::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

// A fresh scratch folder under the build tree, one per test.
inline std::filesystem::path scratch_dir(const std::string& name) {
    const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "tool-test-scratch" / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

inline std::string quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// `arguments` is shell text appended to the `sparts` binary's path.
inline ProgramRun run_sparts(const std::string& arguments, const std::string& input = "") {
    // ctest may run several of these test programs at once: each run has its own files.
    static int runs = 0;
    const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "tool-test-scratch" /
                     ("io-" + std::to_string(getpid()) + "-" + std::to_string(++runs));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    write_whole(dir / "stdin", input);
    const std::string command = quoted(SPARTS_CLI) + " " + arguments + " <" + quoted((dir / "stdin").string()) +
                                " >" + quoted((dir / "stdout").string()) + " 2>" + quoted((dir / "stderr").string());
    const int status = std::system(command.c_str());
    ProgramRun run;
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = read_whole(dir / "stdout");
    run.err = read_whole(dir / "stderr");
    std::filesystem::remove_all(dir);
    return run;
}

}  // namespace sparts::test

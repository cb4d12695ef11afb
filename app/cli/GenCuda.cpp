// `ptxmc gen-cuda`: writes one .cu per test (and mutant) per architecture, plus a manifest.
#include "cli/GenCuda.hpp"

#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/Inputs.hpp"
#include "cli/Pipeline.hpp"
#include "engine/Flags.hpp"
#include "hw/CudaGen.hpp"
#include "hw/MutantList.hpp"
#include "ptx/Mutation.hpp"
#include "support/Plural.hpp"
#include "support/SourceLoc.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

namespace ptxmc::cli {

namespace fs = std::filesystem;

namespace {

const char* const kGenExamples = R"(Examples:
  ptxmc gen-cuda -o validate/generated --mutants validate/mutants.txt litmus
                           every test (sm_90a and sm_100a folders) and the listed mutants
  ptxmc gen-cuda --arch sm_90a -o /tmp/gen litmus/async      Hopper tests of one folder
  ptxmc gen-cuda --derive-mutants validate/mutants.txt -o /tmp/gen litmus
                           also find, with the model, a mutant for each forbidden test

A test that cannot run on hardware faithfully is refused with a warning (DIR/refused.txt says
why). Exit status: 0 generated, 1 some refused under --strict, 2 an input error.
No --unroll: tests with loops (any control flow) are refused, so none is checked.)";

/** Has the model any state that makes the test's condition fail in the "weak" direction? */
bool allowsWeak(const engine::CheckResult& r) {
    if (r.observation == engine::Observation::Deadlock ||
        r.observation == engine::Observation::Unknown)
        return false;
    return r.quantifier == ir::Quantifier::Forall ? r.negative > 0 : r.positive > 0;
}

/** Does the hardware survive the mutant's weak executions: is no flag they raise fatal there? */
bool survivable(const engine::CheckResult& r) {
    return std::none_of(r.flags.begin(), r.flags.end(),
                        [](const auto& f) { return engine::fatalOnHardware(f.name); });
}

struct Writer {
    fs::path dir;
    std::map<std::string, std::vector<std::string>> manifest; // arch -> lines
    std::vector<std::string> refused;
    std::size_t generated = 0;

    void add(const validate::Generated& g, const validate::Origin& o) {
        std::string arch = validate::archName(g.arch);
        fs::create_directories(dir / arch);
        std::ofstream(dir / arch / (g.id + ".cu")) << g.code;
        manifest[arch].push_back(g.id + " " + g.name + " " + o.file +
                                 (o.mutantOf.empty() ? "" : " mutant-of " + o.mutantOf) +
                                 (g.notFaithful.empty() ? "" : " compile-only"));
        ++generated;
    }
};

} // namespace

void setupGenCuda(CLI::App& app) {
    auto args = std::make_shared<GenCudaArgs>();
    CLI::App* sub = app.add_subcommand(
        "gen-cuda", "Generate CUDA litmus kernels (inline PTX) for the hardware harness");
    sub->add_option("--arch", args->arch, "sm_90a, sm_100a or all (default: all)")
        ->check(CLI::IsMember({"sm_90a", "sm_100a", "all"}));
    sub->add_option("-o,--out", args->outDir,
                    "output folder; gets ARCH/ID.cu, MANIFEST.txt and "
                    "refused.txt")
        ->required()
        ->option_text("DIR");
    sub->add_flag("--strict", args->strict,
                  "exit 1 when a test cannot be mapped to hardware (default: a warning)");
    sub->add_option("--mutants", args->mutantsFile,
                    "file of `PATH MUTATION` lines: also generate these mutants")
        ->option_text("FILE");
    sub->add_option("--derive-mutants", args->deriveFile,
                    "find a mutant for each forbidden test with the model, write the pairs to "
                    "FILE and generate them")
        ->option_text("FILE");
    PipelineHelp help;
    // Tests with control flow are refused (no CUDA mapping yet): no loop is ever unrolled.
    help.options = kAllPipelineOptions & ~kUnrollOption;
    help.model = "used by --derive-mutants";
    help.reading = "--derive-mutants checks under one reading of the PTX text: the built-in "
                   "variant model variants/NAME.cat (like --model variants/NAME.cat)";
    help.timeout = "wall-clock limit per --derive-mutants check; a test whose check hits it "
                   "gets no mutant (noted in the derived file)";
    addPipelineOptions(*sub, args->pipeline, help);
    sub->add_option("PATH", args->paths, "litmus files, folders or @index files")
        ->required()
        ->option_text("...");
    sub->footer(kGenExamples);
    sub->callback([args] {
        if (int status = runGenCuda(*args); status != 0) throw CLI::RuntimeError(status);
    });
}

int runGenCuda(const GenCudaArgs& args) {
    Inputs inputs = expandInputs(args.paths);
    for (const std::string& e : inputs.errors)
        std::cerr << e << '\n';
    if (!inputs.errors.empty()) return 2;
    std::multimap<std::string, ptx::Mutation> mutants;
    std::shared_ptr<const cat::ResolvedModel> model;
    try {
        if (!args.mutantsFile.empty())
            mutants = validate::readMutantList(args.mutantsFile).mutations;
        if (!args.deriveFile.empty()) model = loadModel(args.pipeline);
    } catch (const InputError& e) {
        std::cerr << e.what() << '\n';
        return 2;
    }
    Writer out;
    out.dir = args.outDir;
    std::error_code ec;
    for (const char* arch : {"sm_90a", "sm_100a"}) // stale files of renamed tests go too
        if (args.arch == "all" || args.arch == arch)
            for (const auto& e : fs::directory_iterator(out.dir / arch, ec))
                if (e.path().extension() == ".cu") fs::remove(e.path());
    std::vector<std::string> derived;
    int errors = 0;
    auto wanted = [&](validate::Arch a) {
        return args.arch == "all" || args.arch == validate::archName(a);
    };
    for (const std::string& path : inputs.tests) {
        try {
            litmus::Test test = readTest(path);
            validate::Origin origin{path, "", ""};
            validate::Generated g;
            try {
                g = validate::generateCuda(test, origin);
            } catch (const validate::Refused& r) {
                std::cerr << r.what() << '\n';
                // Still give ptxas the instructions: a compile-only kernel the runner skips.
                try {
                    g = validate::generateCuda(test, origin, true);
                    if (wanted(g.arch)) out.add(g, origin);
                    out.refused.push_back(path + ": " + r.why + " [compile-only kernel " + g.id +
                                          "]");
                } catch (const validate::Refused& again) {
                    out.refused.push_back(path + ": " + r.why +
                                          " (no compile-only kernel: " + again.why + ")");
                }
                continue;
            }
            if (!wanted(g.arch)) continue;
            out.add(g, origin);
            std::vector<ptx::Mutation> todo;
            auto range = mutants.equal_range(fs::path(path).lexically_normal().generic_string());
            for (auto it = range.first; it != range.second; ++it)
                todo.push_back(it->second);
            if (model) {
                const engine::CheckOptions options = checkOptionsOf(args.pipeline);
                auto checked = [&](const litmus::Test& t) {
                    engine::CheckOptions timed = options;
                    timed.startedAt = engine::Clock::now();
                    return checkProgram(lowerTest(t, args.pipeline), *model, timed);
                };
                engine::CheckResult r = checked(test);
                if (r.stoppedByLimit()) {
                    derived.push_back("# " + path + ": Unknown (" + r.unknownReason.text +
                                      "): no mutant derived");
                } else if (!allowsWeak(r) && r.observation != engine::Observation::Deadlock) {
                    // the first mutant (strongest weakening first) that allows the weak
                    // outcome and that the hardware survives; else the first that allows it
                    std::optional<std::pair<ptx::Mutation, engine::CheckResult>> chosen;
                    for (const ptx::Mutation& m : ptx::hardwareMutations(test)) {
                        litmus::Test mt = ptx::applyMutation(test, m);
                        try {
                            validate::generateCuda(mt, origin);
                        } catch (const std::exception&) {
                            continue; // the mutant must run on hardware too
                        }
                        engine::CheckResult mr = checked(mt);
                        if (!allowsWeak(mr)) continue;
                        const bool survives = survivable(mr);
                        if (!chosen || survives) chosen.emplace(m, std::move(mr));
                        if (survives) break;
                    }
                    if (chosen) {
                        const ptx::Mutation& m = chosen->first; // (a lambda below reads it)
                        const engine::CheckResult& mr = chosen->second;
                        derived.push_back(path + " " + ptx::toString(m) +
                                          "  # model: " + engine::toString(mr.observation) +
                                          (survivable(mr) ? "" : ", may trap the launch"));
                        if (std::find_if(todo.begin(), todo.end(), [&](const auto& x) {
                                return ptx::toString(x) == ptx::toString(m);
                            }) == todo.end())
                            todo.push_back(m);
                    } else {
                        derived.push_back("# " + path + ": no mutant allows the weak outcome");
                    }
                }
            }
            for (const ptx::Mutation& m : todo) {
                litmus::Test mt = ptx::applyMutation(test, m);
                validate::Origin mo{path, test.name, ptx::toString(m)};
                try {
                    out.add(validate::generateCuda(mt, mo), mo);
                } catch (const validate::Refused& r) {
                    std::cerr << r.what() << '\n';
                    out.refused.push_back(path + " " + mo.mutation + ": " + r.why);
                }
            }
        } catch (const InputError& e) {
            std::cerr << e.what() << '\n';
            ++errors;
        }
    }
    fs::create_directories(out.dir);
    {
        std::ofstream m(out.dir / "MANIFEST.txt");
        m << "# ID NAME FILE [mutant-of TEST]: written by ptxmc gen-cuda\n";
        for (const auto& [arch, lines] : out.manifest)
            for (const std::string& l : lines)
                m << arch << ' ' << l << '\n';
    }
    {
        std::ofstream r(out.dir / "refused.txt");
        r << "# tests ptxmc gen-cuda cannot map to hardware faithfully, and why\n";
        for (const std::string& l : out.refused)
            r << l << '\n';
    }
    if (!args.deriveFile.empty()) {
        std::ofstream d(args.deriveFile);
        d << "# PATH MUTATION: a mutant for each forbidden test (ptxmc gen-cuda "
             "--derive-mutants)\n";
        for (const std::string& l : derived)
            d << l << '\n';
    }
    std::cerr << "ptxmc gen-cuda: " << plural(out.generated, "kernel") << " generated, "
              << out.refused.size() << " refused, " << plural(errors, "error") << "\n";
    if (!out.refused.empty())
        std::cerr << "ptxmc gen-cuda: warning: " << plural(out.refused.size(), "test")
                  << " cannot run on hardware (listed above and in "
                  << (out.dir / "refused.txt").string() << ")"
                  << (args.strict ? "; --strict makes that a failure" : "") << "\n";
    if (errors) return 2;
    return out.refused.empty() || !args.strict ? 0 : 1;
}

} // namespace ptxmc::cli

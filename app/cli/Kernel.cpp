// `ptxmc kernel FILE.ptx`: extracts one program per launch from the PTX (src/kernel), checks it
// like a litmus test and reports its properties in the kernel's terms (PTX and CUDA lines).
#include "cli/Kernel.hpp"

#include "check/Check.hpp"
#include "cli/Check.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/KernelLaunch.hpp"
#include "cli/Pipeline.hpp"
#include "cli/Readings.hpp"
#include "engine/Flags.hpp"
#include "kernel/Extract.hpp"
#include "kernel/Module.hpp"
#include "lower/Lowerer.hpp"
#include "ptx/Program.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

namespace ptxmc::cli {

namespace {

const char* const kKernelExamples = R"(Examples:
  nvcc -arch=sm_90a -ptx -lineinfo gemm.cu -o gemm.ptx
  ptxmc kernel gemm.ptx --param k_tiles=4           every property of the entry
  ptxmc kernel gemm.ptx --param 2=4 --emit-litmus   the extracted program as a litmus test
  ptxmc kernel gemm.ptx --list-params               the parameter fields the kernel reads
  ptxmc kernel gemm.ptx --param 0+344=4             a field of a struct parameter (Params)
  ptxmc kernel attn.ptx --param 3=0x1000 --global 0x1000=u32:128,256
                                                    sequence lengths the kernel loads from memory
  ptxmc kernel gemm.ptx --block 160 --cluster 2 --param k_tiles=4 --readings

Every thread of one cluster runs on what the launch and --param make known; each warp that
synchronizes becomes one thread of the checked program (lanes that do the same merged), each
mbarrier and each async buffer one location. Loops whose bound is a parameter need it with
--param (NAME: the PTX parameter, its _param_N suffix, or its index; NAME+OFFSET=VALUE for
a field of a struct parameter; --list-params lists the fields the kernel reads), values the host
wrote to global memory (a sequence-length array) with --global. Other data (floating point,
values read from memory) is not followed: both sides of a branch on it are explored, and must
meet again before either runs a memory or synchronization instruction.
Exit status: 0 no property is violated, 1 a flag, a hang or an Unknown answer, 2 an input error
(the module, an unsupported instruction, an address or bound ptxmc cannot resolve).)";

struct KernelArgs {
    PipelineOptions pipeline;
    std::string format = "text";
    std::string file;
    LaunchArgs launch;
    bool emitLitmus = false;
    bool readings = false;
    bool stats = false;
    bool listParams = false;
};

std::vector<std::string> flagNamesOf(const cat::ResolvedModel& m) {
    std::vector<std::string> out;
    for (const auto& a : m.axioms)
        if (a.flag && std::find(out.begin(), out.end(), a.name) == out.end()) out.push_back(a.name);
    return out;
}

int printText(const kernel::KernelProgram& k, const engine::CheckResult& r,
              const cat::ResolvedModel& model, const KernelArgs& a, double extractSeconds) {
    std::cout << fmt::format("Kernel {} ({}): {} CTA(s), {} warps; {} of them synchronize "
                             "({} instructions checked)\n",
                             k.test.name, k.test.file, k.stats.ctas, k.stats.warps, k.stats.threads,
                             k.stats.events);
    bool bad = false;
    if (r.observation == engine::Observation::Unknown) {
        std::cout << "Unknown: " << r.unknownReason.text << '\n';
        bad = true;
    }
    std::set<std::string> raised;
    for (const auto& f : r.flags)
        raised.insert(f.name);
    bool hang = r.observation == engine::Observation::Deadlock || raised.count(engine::kHangFlag);
    if (r.observation != engine::Observation::Unknown) {
        std::cout << "Properties:\n";
        for (const std::string& name : flagNamesOf(model))
            std::cout << fmt::format("  {:<28} {}\n", name,
                                     raised.count(name) ? "VIOLATED" : "holds");
        std::cout << fmt::format("  {:<28} {}\n", "completes (no hang)",
                                 hang ? "VIOLATED" : "holds");
    }
    for (const auto& f : r.flags) {
        bad = true;
        std::cout << "\nFlag " << f.name << ": " << f.doc << '\n';
        for (std::size_t w = 0; w < f.witnesses.size(); ++w) {
            std::cout << "  witness " << (w + 1) << ":\n";
            for (const auto& e : f.witnesses[w])
                std::cout << "    " << kernelEventText(e, k) << '\n';
        }
    }
    if (r.observation == engine::Observation::Deadlock) {
        bad = true;
        std::cout << "\nHang: no execution completes:\n";
        for (const auto& b : r.deadlockedWaits)
            std::cout << "  " << (b.wait ? kernelEventText(*b.wait, k) : b.reason)
                      << (b.wait && !b.reason.empty() ? " (" + b.reason + ")" : "") << '\n';
    }
    if (r.readings && r.readings->empty())
        std::cout << "\nReadings: robust, the same answer under every reading of the PTX text's "
                     "open questions\n";
    if (r.readings && !r.readings->empty()) {
        std::cout << "\nReading-dependent: the readings under which the answer differs:\n";
        for (const auto& rd : *r.readings) {
            std::string flags;
            for (const auto& f : rd.flags)
                flags += (flags.empty() ? "" : ",") + f;
            std::cout << fmt::format(
                "  {}: {}{}\n", rd.reading.modelFile(), flags.empty() ? "no flag" : flags,
                rd.observation == engine::Observation::Deadlock ? ", hangs" : "");
        }
    }
    if (!k.notes.empty()) {
        std::cout << "\nAssumed:\n";
        for (const auto& n : k.notes)
            std::cout << "  " << (n.loc.line > 0 ? n.loc.str() + ": " : "") << n.text << '\n';
    }
    if (a.stats)
        std::cout << fmt::format("\nStats: {} instructions executed by the evaluation, {} data "
                                 "accesses outside async buffers dropped, {} repeated accesses "
                                 "kept once, extraction {:.2f} s, check {:.2f} s\n",
                                 k.stats.executed, k.stats.droppedData, k.stats.repeatedAccesses,
                                 extractSeconds, r.seconds);
    bool violated = !r.flags.empty() || r.observation == engine::Observation::Deadlock;
    std::cout << (violated ? "Verdict: violations found\n"
                  : bad    ? "Verdict: Unknown (no answer within the limit named above)\n"
                           : "Verdict: clean for this launch and bound\n");
    return bad ? 1 : 0;
}

int printJson(const kernel::KernelProgram& k, const engine::CheckResult& r,
              const cat::ResolvedModel& model) {
    nlohmann::ordered_json j;
    j["kernel"] = k.test.name;
    j["file"] = k.test.file;
    j["ctas"] = k.stats.ctas;
    j["warps"] = k.stats.warps;
    j["threads"] = k.stats.threads;
    j["events"] = k.stats.events;
    j["observation"] = engine::toString(r.observation);
    if (!r.unknownReason.empty()) j["unknown"] = r.unknownReason.text;
    std::set<std::string> raised;
    for (const auto& f : r.flags)
        raised.insert(f.name);
    nlohmann::ordered_json props = nlohmann::ordered_json::object();
    for (const std::string& name : flagNamesOf(model))
        props[name] = raised.count(name) ? "violated" : "holds";
    bool hang = r.observation == engine::Observation::Deadlock || raised.count(engine::kHangFlag);
    props["completes"] = hang ? "violated" : "holds";
    j["properties"] = props;
    nlohmann::ordered_json flags = nlohmann::ordered_json::array();
    for (const auto& f : r.flags) {
        nlohmann::ordered_json fj;
        fj["name"] = f.name;
        fj["witnesses"] = nlohmann::ordered_json::array();
        for (const auto& w : f.witnesses) {
            nlohmann::ordered_json wj = nlohmann::ordered_json::array();
            for (const auto& e : w)
                wj.push_back(kernelEventText(e, k));
            fj["witnesses"].push_back(wj);
        }
        flags.push_back(fj);
    }
    j["flags"] = flags;
    nlohmann::ordered_json notes = nlohmann::ordered_json::array();
    for (const auto& n : k.notes)
        notes.push_back(n.text);
    j["assumed"] = notes;
    std::cout << j.dump(2) << '\n';
    bool bad = !r.flags.empty() || r.observation == engine::Observation::Deadlock ||
               r.observation == engine::Observation::Unknown;
    return bad ? 1 : 0;
}

/** SARIF 2.1.0 for code scanning: every violated property an error at the PTX line. */
int printSarif(const kernel::KernelProgram& k, const engine::CheckResult& r,
               const cat::ResolvedModel& model) {
    report::SarifReport sarif(PTXMC_VERSION, flagRulesOf(&model));
    report::TestOutcome o;
    o.path = k.test.file;
    o.result = &r;
    o.everyFlagFails = true;
    o.sourceOf = [&k](int ptxLine) -> std::optional<std::pair<std::string, int>> {
        auto it = k.cudaLines.find(ptxLine);
        if (it == k.cudaLines.end()) return std::nullopt;
        return std::pair{it->second.file, it->second.line};
    };
    sarif.add(o);
    std::cout << sarif.text();
    bool bad = !r.flags.empty() || r.observation == engine::Observation::Deadlock ||
               r.observation == engine::Observation::Unknown;
    return bad ? 1 : 0;
}

/**
 * --list-params: every parameter field the evaluation read, given or not, and where threads
 * stopped. Exit 0 when every thread ran to its end, 2 when some stopped.
 */
int listParams(const kernel::Module& m, const kernel::Launch& launch) {
    const kernel::Function& f = kernel::pickEntry(m, launch.entry);
    const kernel::Extraction x = kernel::evaluate(m, f, launch);
    int threads = x.block[0] * x.block[1] * x.block[2];
    int ctas = x.cluster[0] * x.cluster[1] * x.cluster[2];
    std::cout << fmt::format("Parameter fields read by {} ({}; {} CTA(s) of {} threads), as "
                             "--param INDEX+OFFSET names them:\n",
                             f.name.size() > 60 ? f.name.substr(0, 57) + "..." : f.name, m.file,
                             ctas, threads);
    // one line per field (its first load; how many other loads read it)
    std::vector<std::string> order, needed;
    std::map<std::string, std::pair<kernel::ParamRead, int>> fields;
    for (const kernel::ParamRead& r : x.paramReads) {
        std::string key = fmt::format("{}:{}", r.field(), r.bytes);
        auto [it, fresh] = fields.emplace(key, std::make_pair(r, 0));
        if (fresh)
            order.push_back(key);
        else
            ++it->second.second;
        it->second.first.decides = it->second.first.decides || r.decides;
    }
    for (const std::string& key : order) {
        const auto& [r, more] = fields.at(key);
        std::string status = r.value     ? fmt::format("= {}", *r.value)
                             : r.decides ? std::string("not given, a branch needs it")
                                         : std::string("not given");
        std::cout << fmt::format(
            "  {:<10} {:>2} bytes  {:<30} {}{}{}\n", r.field(), r.bytes, status, r.loc.str(),
            r.cuda ? fmt::format(" ({}:{})", r.cuda->file, r.cuda->line) : std::string(),
            more ? fmt::format(" and {} more load(s)", more) : std::string());
        if (r.decides) needed.push_back("--param " + r.field() + "=VALUE");
    }
    if (x.paramReads.empty()) std::cout << "  (none)\n";
    std::vector<kernel::Note> stops = x.stops;
    if (stops.empty()) { // the program is built too: an operand may need a field (expect_tx bytes)
        kernel::Launch check = launch;
        check.listParams = false;
        try {
            kernel::extractKernel(m, check);
        } catch (const InputError& e) {
            stops.push_back(kernel::Note{e.loc(), e.message()});
            std::size_t add = e.message().rfind("add --param ");
            if (add != std::string::npos) needed.push_back(e.message().substr(add + 4));
        }
    }
    std::stable_sort(stops.begin(), stops.end(), [](const auto& p, const auto& q) {
        return std::make_pair(p.loc.line, p.loc.col) < std::make_pair(q.loc.line, q.loc.col);
    });
    if (stops.empty()) {
        std::cout << "Every thread ran to its end and the program is built: the check can run "
                     "with these values.\n";
        return 0;
    }
    std::cout << "Stopped (a thread that reaches one goes no further):\n";
    for (const kernel::Note& n : stops)
        std::cout << "  " << (n.loc.line > 0 ? n.loc.str() + ": " : "") << n.text << '\n';
    if (!needed.empty()) {
        std::string all;
        for (const std::string& n : needed)
            all += (all.empty() ? "" : " ") + n;
        std::cout << "To go further: " << all << '\n';
    }
    return 2;
}

int runKernel(const KernelArgs& a) {
    using Clock = std::chrono::steady_clock;
    auto t0 = Clock::now();
    kernel::Launch launch = launchOf(a.launch);
    if (a.listParams) {
        launch.listParams = true;
        return listParams(kernel::parseModuleFile(a.file), launch);
    }
    kernel::KernelProgram k = extractKernelFile(a.file, launch);
    double extractSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
    if (a.emitLitmus) {
        std::cout << kernel::renderLitmus(k);
        return 0;
    }
    if (a.readings && !a.pipeline.model.empty())
        throw InputError(SourceLoc{"--readings", 1, 1},
                         "--readings compares the built-in model with its variants "
                         "(model/variants); it takes no --model");
    // the variants redefine one decision of the built-in model each
    std::shared_ptr<const cat::ResolvedModel> model =
        a.readings ? modelWithReadings() : loadModel(a.pipeline);
    const ptx::Program decoded = ptx::decodeProgram(k.test);
    const ir::Program program =
        lower::lowerProgram(decoded, lower::LowerOptions{a.pipeline.unroll});
    engine::CheckOptions options = checkOptionsOf(a.pipeline);
    engine::CheckResult r = checkProgram(program, *model, options, a.readings);
    if (a.format == "sarif") return printSarif(k, r, *model);
    return a.format == "json" ? printJson(k, r, *model)
                              : printText(k, r, *model, a, extractSeconds);
}

} // namespace

void setupKernel(CLI::App& app) {
    auto args = std::make_shared<KernelArgs>();
    CLI::App* sub = app.add_subcommand(
        "kernel", "Check the synchronization of a PTX module's kernel (nvcc -ptx output)");
    addFormatOption(*sub, args->format, {"text", "json", "sarif"},
                    "text (the default), json, or sarif (SARIF 2.1.0 for code scanning)");
    PipelineHelp help;
    help.timeout = "wall-clock limit for the check";
    addPipelineOptions(*sub, args->pipeline, help);
    addLaunchOptions(*sub, args->launch);
    sub->add_flag("--emit-litmus", args->emitLitmus,
                  "print the extracted program as a litmus test (ptxmc check reads it) and stop");
    sub->add_flag("--readings", args->readings,
                  "also check under every reading of the PTX text's open questions");
    sub->add_flag("--stats", args->stats, "print the extraction's figures and times");
    sub->add_flag("--list-params", args->listParams,
                  "evaluate as far as the given values go, list every parameter field read "
                  "(given or not) and where threads stopped; no check");
    sub->add_option("FILE", args->file, "the PTX module (nvcc -ptx, cuobjdump -ptx)")->required();
    sub->footer(kKernelExamples);
    sub->callback([args] {
        int status = 0;
        try {
            status = runKernel(*args);
        } catch (const InputError& e) {
            if (args->format != "sarif") throw;
            // A CI job reads the log: the located error goes into it too (and to stderr).
            report::SarifReport sarif(PTXMC_VERSION, {});
            sarif.addError(e.what());
            std::cout << sarif.text();
            std::cerr << e.what() << '\n';
            status = 2;
        }
        if (status != 0) throw CLI::RuntimeError(status);
    });
}

} // namespace ptxmc::cli

// `ptxmc kernel FILE.ptx`: extracts one program per launch from the PTX (src/kernel), checks it
// like a litmus test and reports its properties in the kernel's terms (PTX and CUDA lines).
#include "cli/Kernel.hpp"

#include "check/Check.hpp"
#include "cli/Check.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/KernelLaunch.hpp"
#include "cli/KernelLocations.hpp"
#include "cli/Pipeline.hpp"
#include "cli/Progress.hpp"
#include "cli/Readings.hpp"
#include "engine/Flags.hpp"
#include "kernel/Extract.hpp"
#include "kernel/LaunchShape.hpp"
#include "kernel/Module.hpp"
#include "lower/Lowerer.hpp"
#include "ptx/Program.hpp"
#include "report/Answer.hpp"
#include "report/StatsPrinter.hpp"

#include <algorithm>
#include <cctype>
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
  ptxmc kernel gemm.ptx --list-params --all --params-out gemm.params
                                                    every field the run needs, at once, in a file
  ptxmc kernel gemm.ptx --params gemm.params        the fields from that file, once filled in
  ptxmc kernel gemm.ptx --param-bytes 0=gemm.params.bin
                                                    parameter 0 as the host dumped it
                                                    (ptxmc/params_dump.h)
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
    bool listAll = false;     ///< --all: go on past the fields a branch needs
    std::string paramsOut;    ///< --params-out FILE
    double progressAfter = 3; ///< seconds before the progress line shows (on a terminal)
};

/** The text output's lines under an event: "inlined at FILE:LINE", one per call site. */
std::string callSites(const engine::EventRef& e, const kernel::KernelProgram& k,
                      const std::string& indent) {
    std::string s;
    if (const kernel::CudaLine* cuda = cudaLineOf(e, k))
        for (const kernel::SourceLine& caller : cuda->inlinedAt)
            s += fmt::format("{}inlined at {}:{}\n", indent, caller.file, caller.line);
    return s;
}

/**
 * What reading `rd` changes from the default reading `r`: the flags it raises and those it
 * does not (report::flagChanges), whether the kernel hangs, else its verdict.
 */
std::string readingChanges(const engine::CheckResult& r, const engine::ReadingResult& rd) {
    std::string out = report::flagChanges(report::flagNames(r.flags), rd);
    const bool hangs = rd.observation == engine::Observation::Deadlock;
    if (hangs != (r.observation == engine::Observation::Deadlock))
        out += (out.empty() ? "" : "; ") + std::string(hangs ? "hangs" : "completes (no hang)");
    if (out.empty())
        out = "the same flags; verdict " + std::string(engine::toString(rd.observation));
    return out;
}

std::vector<std::string> flagNamesOf(const cat::ResolvedModel& m) {
    std::vector<std::string> out;
    for (const auto& a : m.axioms)
        if (a.flag && std::find(out.begin(), out.end(), a.name) == out.end()) out.push_back(a.name);
    return out;
}

int printText(const kernel::KernelProgram& k, const engine::CheckResult& r,
              const cat::ResolvedModel& model, const KernelArgs& a, double extractSeconds,
              const std::vector<InstructionRun>& runs) {
    const std::map<std::string, kernel::CodeName> names = kernel::codeNames(k);
    std::cout << fmt::format("Kernel {} ({}): {} CTA(s), {} warps; {} of them synchronize "
                             "({} instructions checked)\n",
                             k.test.name, k.test.file, k.stats.ctas, k.stats.warps, k.stats.threads,
                             k.stats.events);
    if (std::string modelArg = modelArgOf(a.pipeline); !modelArg.empty())
        std::cout << "Model: " << modelArg
                  << (a.pipeline.reading.empty() ? "" : " (--reading " + a.pipeline.reading + ")")
                  << '\n';
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
                std::cout << "    " << kernelEventText(e, k, false, &runs) << '\n'
                          << callSites(e, k, "        ");
        }
        const std::vector<std::string> named = locationsOf(f, k);
        if (!named.empty()) std::cout << "  in the code:\n";
        for (const std::string& name : named)
            std::cout << "    " << firstUseText(name, k, names) << '\n';
    }
    if (r.observation == engine::Observation::Deadlock) {
        bad = true;
        std::cout << "\nHang: no execution completes:\n";
        for (const auto& b : r.deadlockedWaits)
            std::cout << "  " << (b.wait ? kernelEventText(*b.wait, k, false, &runs) : b.reason)
                      << (b.wait && !b.reason.empty() ? " (" + b.reason + ")" : "") << '\n'
                      << (b.wait ? callSites(*b.wait, k, "      ") : std::string());
    }
    if (r.readings && r.readings->empty())
        std::cout << "\nReadings: robust, the same answer under every reading of the PTX text's "
                     "open questions\n";
    if (r.readings && !r.readings->empty()) {
        std::cout << "\nReading-dependent: what each of these readings changes from the default "
                     "reading (a flag raised, or not raised, under it):\n";
        for (const auto& rd : *r.readings)
            std::cout << "  " << report::readingText(rd) << ": " << readingChanges(r, rd) << '\n';
    }
    if (!k.notes.empty()) {
        std::cout << "\nAssumed:\n";
        for (const auto& n : k.notes)
            std::cout << "  " << (n.loc.line > 0 ? n.loc.str() + ": " : "") << n.text << '\n';
    }
    if (a.stats)
        std::cout << fmt::format(
            "\nStats: {} instructions executed by the evaluation, {} data "
            "accesses outside async buffers dropped, {} repeated accesses and mmas "
            "kept once, extraction {:.2f} s, check {:.2f} s\n",
            k.stats.executed, k.stats.droppedData, k.stats.repeatedAccesses, extractSeconds,
            r.seconds);
    // the check's own cost, as `check --stats` prints it (the witnesses' search among its queries)
    if (a.stats && r.stats) report::printStats(std::cout, k.test.name, *r.stats, true);
    bool violated = !r.flags.empty() || r.observation == engine::Observation::Deadlock;
    std::cout << (violated ? "Verdict: violations found\n"
                  : bad    ? "Verdict: Unknown (no answer within the limit named above)\n"
                           : "Verdict: clean for this launch and bound\n");
    return bad ? 1 : 0;
}

int printJson(const kernel::KernelProgram& k, const engine::CheckResult& r,
              const cat::ResolvedModel& model, const std::string& modelArg,
              const std::vector<InstructionRun>& runs) {
    const std::map<std::string, kernel::CodeName> names = kernel::codeNames(k);
    nlohmann::ordered_json j;
    j["kernel"] = k.test.name;
    j["file"] = k.test.file;
    j["ctas"] = k.stats.ctas;
    j["warps"] = k.stats.warps;
    j["threads"] = k.stats.threads;
    j["events"] = k.stats.events;
    if (!modelArg.empty()) j["model"] = modelArg; // --model or --reading; absent: the built-in
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
        // each event's CUDA lines, as the witnesses list the events
        fj["sources"] = nlohmann::ordered_json::array();
        for (const auto& w : f.witnesses) {
            nlohmann::ordered_json wj = nlohmann::ordered_json::array();
            nlohmann::ordered_json sj = nlohmann::ordered_json::array();
            for (const auto& e : w) {
                wj.push_back(kernelEventText(e, k, true, &runs));
                sj.push_back(sourcesJson(e.loc.line, k));
            }
            fj["witnesses"].push_back(wj);
            fj["sources"].push_back(sj);
        }
        fj["locations"] = nlohmann::ordered_json::array();
        for (const std::string& name : locationsOf(f, k))
            fj["locations"].push_back(firstUseJson(name, k, names));
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
    o.sourceOf = [&k](int ptxLine) {
        std::vector<report::SourceFrame> out;
        auto it = k.cudaLines.find(ptxLine);
        if (it == k.cudaLines.end()) return out;
        // the innermost user line is where; every other line of the chain is related
        const kernel::SourceLine user = it->second.userLine();
        out.push_back({user.file, user.line, "the innermost line outside the CUDA toolkit"});
        bool inner = true;
        for (const kernel::SourceLine& f : it->second.frames()) {
            if (f.file == user.file && f.line == user.line && inner) {
                inner = false;
                continue;
            }
            out.push_back({f.file, f.line,
                           inner ? "the toolkit line inlined there" : "inlined at this call site"});
        }
        return out;
    };
    sarif.add(o);
    std::cout << sarif.text();
    bool bad = !r.flags.empty() || r.observation == engine::Observation::Deadlock ||
               r.observation == engine::Observation::Unknown;
    return bad ? 1 : 0;
}

/** "warning:" lines on stderr for the fields given that the kernel never reads. */
void warnUnread(const std::vector<kernel::Note>& unread) {
    for (const kernel::Note& n : unread)
        std::cerr << (n.loc.line > 0 ? n.loc.str() + ": " : "") << "warning: " << n.text << '\n';
}

/** A note on stderr when cluster instructions run in a cluster no one sized. */
void noteUnsizedCluster(const kernel::Function& f, const kernel::Launch& launch) {
    if (auto at = kernel::unsizedClusterUse(f, launch))
        std::cerr << at->str()
                  << ": note: the kernel uses cluster instructions and the module names no "
                     "cluster shape (.reqnctapercluster): it runs as one CTA per cluster unless "
                     "--cluster gives the shape the host launches (CUTLASS sets it at launch)\n";
}

/** One parameter field of the listing: its first load, how many more, what needs it. */
struct FieldLine {
    kernel::ParamRead read;
    int more = 0;        ///< other loads of it
    std::string needsIt; ///< "a branch", "an operand"; empty: nothing the run needs
};

/**
 * The fields `x` read, one per (field, width), in the order first read; `needs`: fields no
 * option gives that the run needs (any value they have is --all's stand-in).
 */
std::vector<FieldLine> fieldLines(const kernel::Extraction& x,
                                  const std::map<std::string, std::string>& needs) {
    std::vector<FieldLine> lines;
    std::map<std::string, std::size_t> at;
    for (const kernel::ParamRead& r : x.paramReads) {
        std::string key = fmt::format("{}:{}", r.field(), r.bytes);
        auto [it, fresh] = at.emplace(key, lines.size());
        if (fresh)
            lines.push_back(FieldLine{r, 0, {}});
        else
            ++lines[it->second].more;
        FieldLine& l = lines[it->second];
        if (r.decides && !r.value) l.needsIt = "a branch";
        auto need = needs.find(r.field());
        if (need != needs.end()) { // not given (1 may have stood in for it)
            l.read.value.reset();
            l.needsIt = need->second;
        }
    }
    return lines;
}

/** --params-out: the fields as an editable --params file. */
void writeParamsFile(const std::string& path, const std::vector<FieldLine>& lines,
                     const std::string& entry, const std::string& file) {
    std::ofstream out(path);
    if (!out)
        throw InputError(SourceLoc{"--params-out", 1, 1},
                         "--params-out: cannot write '" + path + "'");
    out << "# Parameter fields of " << entry << " (" << file << "), for ptxmc kernel --params.\n"
        << "# One field a line, INDEX[+OFFSET] = VALUE (decimal or 0x), as --param names it;\n"
        << "# '#' starts a comment. '?' marks a field the run needs that no option gave: write\n"
        << "# the host's value there. Fields left commented out are data the check does not\n"
        << "# need. --param on the command line overrides a value given here.\n";
    for (const FieldLine& l : lines) {
        const kernel::ParamRead& r = l.read;
        std::string value = r.value ? std::to_string(*r.value) : std::string("?");
        std::string where = r.loc.str() + (r.cuda ? fmt::format(" ({}:{})", r.cuda->userLine().file,
                                                                r.cuda->userLine().line)
                                                  : std::string());
        std::string why = r.value             ? std::string()
                          : l.needsIt.empty() ? std::string(", data: not needed")
                                              : ", " + l.needsIt + " needs it";
        out << fmt::format("{}{:<12} # {} bytes, read at {}{}\n",
                           r.value || !l.needsIt.empty() ? "" : "# ", r.field() + " = " + value,
                           r.bytes, where, why);
    }
}

/** `field` ("0+344") as a --param key. */
std::pair<std::string, std::uint64_t> fieldKey(const std::string& field) {
    std::size_t plus = field.find('+');
    if (plus == std::string::npos) return {field, 0};
    return {field.substr(0, plus), std::stoull(field.substr(plus + 1))};
}

/** Where threads stopped under `launch`, else where building the program stopped, if it did. */
std::vector<kernel::Note> firstStops(const kernel::Module& m, const kernel::Launch& launch,
                                     const kernel::Extraction& x) {
    if (!x.stops.empty()) return x.stops;
    kernel::Launch check = launch; // the program is built too: an operand may need a field
    check.listParams = false;
    try {
        kernel::extractKernel(m, check);
    } catch (const InputError& e) {
        return {kernel::noteOf(e)};
    }
    return {};
}

/**
 * The fields not given, and not stood in for, that a branch of `x` or (once every thread ran
 * to its end) an operand of the program needs (`stops`: firstStops), each with what needs it,
 * in the listing's order.
 */
std::vector<std::pair<std::string, std::string>>
neededFields(const kernel::Extraction& x, const std::vector<kernel::Note>& stops,
             const std::map<std::string, std::string>& standIns) {
    std::vector<std::pair<std::string, std::string>> fresh;
    auto add = [&](const std::string& field, const char* what) {
        bool known = std::any_of(fresh.begin(), fresh.end(),
                                 [&](const auto& p) { return p.first == field; });
        if (!known && !standIns.count(field)) fresh.emplace_back(field, what);
    };
    for (const FieldLine& l : fieldLines(x, standIns))
        if (l.read.value == std::nullopt && !l.needsIt.empty()) add(l.read.field(), "a branch");
    if (x.stops.empty())
        for (const kernel::Note& n : stops)
            if (!n.field.empty()) add(n.field, "an operand");
    return fresh;
}

/**
 * --list-params: every parameter field the evaluation read, given or not, and where threads
 * stopped. Exit 0 when every thread ran to its end, 2 when some stopped. With --all, each field
 * a branch or an operand needs is set to 1 and the evaluation runs again, until no new field is
 * needed, so that one run names them all.
 */
int listParams(const kernel::Module& m, const kernel::Launch& launch, const KernelArgs& a) {
    const kernel::Function& f = kernel::pickEntry(m, launch.entry);
    kernel::Launch round = launch;
    std::map<std::string, std::string> standIns; // field -> what needs it
    std::vector<std::string> needed;             // in the order found
    std::map<std::string, std::string> needs;    // every field needed -> what needs it
    std::vector<kernel::Note> stops;             // the first round's
    kernel::Extraction x;
    // 1 stands for each field needed: it runs a loop once and keeps evaluations short (a
    // larger value, a tile's 128, multiplies the work by the loops it bounds)
    constexpr int kRounds = 64;
    for (int n = 0; n < kRounds; ++n) {
        x = kernel::evaluate(m, f, round);
        std::vector<kernel::Note> roundStops = firstStops(m, round, x);
        std::vector<std::pair<std::string, std::string>> fresh =
            neededFields(x, roundStops, standIns);
        if (n == 0) stops = roundStops;
        for (const auto& [field, what] : fresh)
            if (needs.emplace(field, what).second) needed.push_back(field);
        if (!a.listAll || fresh.empty()) break;
        for (const auto& [field, what] : fresh) {
            standIns.emplace(field, what);
            round.params[fieldKey(field)] = 1;
        }
    }
    int threads = x.block[0] * x.block[1] * x.block[2];
    int ctas = x.cluster[0] * x.cluster[1] * x.cluster[2];
    std::cout << fmt::format("Parameter fields read by {} ({}; {} CTA(s) of {} threads), as "
                             "--param INDEX+OFFSET names them:\n",
                             f.name.size() > 60 ? f.name.substr(0, 57) + "..." : f.name, m.file,
                             ctas, threads);
    std::vector<FieldLine> lines = fieldLines(x, needs); // what needs them, stood in for or not
    for (const FieldLine& l : lines) {
        const kernel::ParamRead& r = l.read;
        std::string status = r.value              ? fmt::format("= {}", *r.value)
                             : !l.needsIt.empty() ? "not given, " + l.needsIt + " needs it"
                                                  : std::string("not given");
        std::cout << fmt::format(
            "  {:<10} {:>2} bytes  {:<30} {}{}{}\n", r.field(), r.bytes, status, r.loc.str(),
            r.cuda ? fmt::format(" ({}:{})", r.cuda->userLine().file, r.cuda->userLine().line)
                   : std::string(),
            l.more ? fmt::format(" and {} more load(s)", l.more) : std::string());
    }
    if (x.paramReads.empty()) std::cout << "  (none)\n";
    if (!a.paramsOut.empty()) writeParamsFile(a.paramsOut, lines, f.name, m.file);
    if (x.stops.empty()) warnUnread(x.unread); // else a thread that stopped may read them
    noteUnsizedCluster(f, launch);
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
    if (a.listAll && needed.size() > 1)
        std::cout << fmt::format("--all: with 1 standing for each field not given, the "
                                 "evaluation went on and found {} field(s) the run needs\n",
                                 needed.size());
    if (!needed.empty()) {
        std::string all;
        for (const std::string& n : needed)
            all += (all.empty() ? "" : " ") + ("--param " + n + "=VALUE");
        std::cout << "To go further: " << all << '\n';
    }
    return 2;
}

int runKernel(const KernelArgs& a) {
    using Clock = std::chrono::steady_clock;
    auto t0 = Clock::now();
    if (a.readings && (!a.pipeline.model.empty() || !a.pipeline.reading.empty()))
        throw InputError(SourceLoc{"--readings", 1, 1},
                         "--readings compares the built-in model with its variants "
                         "(model/variants); it takes no --model or --reading");
    const kernel::Module m = kernel::parseModuleFile(a.file);
    kernel::Launch launch = launchOf(a.launch);
    launch.listParams = a.listParams;
    if (a.listParams) return listParams(m, launch, a);
    kernel::KernelProgram k = extractEntry(m, launch);
    warnUnread(k.unread);
    noteUnsizedCluster(kernel::pickEntry(m, launch.entry), launch);
    double extractSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
    if (a.emitLitmus) {
        std::cout << kernel::renderLitmus(k);
        return 0;
    }
    // the variants redefine one decision of the built-in model each
    std::shared_ptr<const cat::ResolvedModel> model =
        a.readings ? modelWithReadings() : loadModel(a.pipeline);
    const ptx::Program decoded = ptx::decodeProgram(k.test);
    const ir::Program program =
        lower::lowerProgram(decoded, lower::LowerOptions{a.pipeline.unroll});
    engine::CheckOptions options = checkOptionsOf(a.pipeline);
    // a flag's witness must not move when --readings is added: the smallest, not the first found
    options.canonicalWitnesses = true;
    options.stats = options.stats || a.stats;
    Progress progress("checking " + k.test.name, a.progressAfter, stderrIsTerminal(), std::cerr);
    engine::CheckResult r = checkProgram(program, *model, options, a.readings);
    progress.finish(); // the line goes before the report is printed
    if (a.format == "sarif") return printSarif(k, r, *model);
    const std::vector<InstructionRun> runs = instructionRuns(program);
    return a.format == "json" ? printJson(k, r, *model, modelArgOf(a.pipeline), runs)
                              : printText(k, r, *model, a, extractSeconds, runs);
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
    sub->add_flag("--stats", args->stats,
                  "print the extraction's figures and times, and the check's (encoding sizes, "
                  "solver queries and their times)");
    CLI::Option* listParams =
        sub->add_flag("--list-params", args->listParams,
                      "evaluate as far as the given values go, list every parameter field read "
                      "(given or not) and where threads stopped; no check");
    sub->add_flag("--all", args->listAll,
                  "with --list-params: go on past the fields a branch needs (1 stands for each) "
                  "and list every field the run needs at once")
        ->needs(listParams);
    sub->add_option("--params-out", args->paramsOut,
                    "with --list-params: write the fields read to FILE, a --params file to edit")
        ->needs(listParams);
    sub->add_option("--progress-after", args->progressAfter,
                    "seconds before a check shows its progress line on a terminal")
        ->group("");
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

// `ptxmc kernel FILE.ptx`: extracts one program per launch from the PTX (src/kernel), checks it
// like a litmus test and reports its properties in the kernel's terms (PTX and CUDA lines).
#include "cli/Kernel.hpp"

#include "check/Check.hpp"
#include "cli/Check.hpp"
#include "cli/CommonOptions.hpp"
#include "cli/Pipeline.hpp"
#include "cli/Progress.hpp"
#include "cli/Readings.hpp"
#include "engine/Flags.hpp"
#include "kernel/Extract.hpp"
#include "kernel/LaunchShape.hpp"
#include "kernel/Module.hpp"
#include "lower/Lowerer.hpp"
#include "ptx/Program.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fmt/format.h>
#include <fstream>
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
    std::string entry;
    std::string block, cluster, grid;
    std::vector<std::string> params;
    std::vector<std::string> globals;
    std::uint64_t dynamicSmem = kernel::Launch{}.dynamicShared;
    std::uint64_t maxSteps = kernel::Launch{}.maxSteps;
    int tiles = kernel::Launch{}.tiles;
    bool emitLitmus = false;
    bool readings = false;
    bool stats = false;
    bool listParams = false;
    bool listAll = false;                ///< --all: go on past the fields a branch needs
    std::vector<std::string> paramBytes; ///< --param-bytes NAME=FILE
    std::string paramsFile;              ///< --params FILE
    std::string paramsOut;               ///< --params-out FILE
    double progressAfter = 3;            ///< seconds before the progress line shows (on a terminal)
};

std::array<int, 3> dims(const std::string& text, const char* option) {
    std::array<int, 3> d{1, 1, 1};
    std::size_t pos = 0;
    for (int k = 0; k < 3 && pos <= text.size(); ++k) {
        std::size_t comma = text.find(',', pos);
        std::string part =
            text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        try {
            std::size_t used = 0;
            int v = std::stoi(part, &used);
            if (used != part.size() || v <= 0) throw std::invalid_argument(part);
            d[static_cast<std::size_t>(k)] = v;
        } catch (const std::exception&) {
            throw InputError(SourceLoc{option, 1, static_cast<int>(pos) + 1},
                             std::string(option) +
                                 " takes X[,Y[,Z]] with positive integers, got '" + text + "'");
        }
        if (comma == std::string::npos) return d;
        pos = comma + 1;
    }
    throw InputError(SourceLoc{option, 1, 1}, std::string(option) + " takes at most three sizes");
}

/** An integer of --global's text at `pos`: decimal or 0x; `what` names it in the error. */
std::uint64_t globalNumber(const std::string& arg, std::size_t pos, std::size_t end,
                           const char* what) {
    std::string text = arg.substr(pos, end - pos);
    try {
        std::size_t used = 0;
        if (text.empty() || text[0] == '-') throw std::invalid_argument(text);
        std::uint64_t v = std::stoull(text, &used, 0);
        if (used != text.size()) throw std::invalid_argument(text);
        return v;
    } catch (const std::exception&) {
        throw InputError(
            SourceLoc{"--global", 1, static_cast<int>(pos) + 1},
            fmt::format("--global: {} must be an integer (decimal or 0x), got '{}'", what, text));
    }
}

/**
 * --global ADDRESS=TYPE:V,V,... (TYPE u8, u16, u32 or u64: each value that wide, little-endian)
 * or ADDRESS=@FILE (the file's bytes): global memory the host wrote before the launch.
 */
std::pair<std::uint64_t, std::vector<std::uint8_t>> globalBytes(const std::string& arg) {
    std::size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0)
        throw InputError(SourceLoc{"--global", 1, 1},
                         "--global takes ADDRESS=TYPE:V,V,... or ADDRESS=@FILE, got '" + arg + "'");
    std::uint64_t address = globalNumber(arg, 0, eq, "the address");
    std::vector<std::uint8_t> bytes;
    if (arg.compare(eq + 1, 1, "@") == 0) {
        std::string path = arg.substr(eq + 2);
        std::ifstream in(path, std::ios::binary);
        if (!in)
            throw InputError(SourceLoc{"--global", 1, static_cast<int>(eq) + 3},
                             "--global: cannot read '" + path + "'");
        bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    } else {
        std::size_t colon = arg.find(':', eq);
        std::string type = arg.substr(eq + 1, colon == std::string::npos ? 0 : colon - eq - 1);
        int width = type == "u8"    ? 1
                    : type == "u16" ? 2
                    : type == "u32" ? 4
                    : type == "u64" ? 8
                                    : 0;
        if (width == 0)
            throw InputError(SourceLoc{"--global", 1, static_cast<int>(eq) + 2},
                             "--global: the values need a type, u8, u16, u32 or u64 (ADDRESS=u32:"
                             "V,V,...), got '" +
                                 arg.substr(eq + 1) + "'");
        for (std::size_t pos = colon + 1; pos <= arg.size();) {
            std::size_t comma = std::min(arg.find(',', pos), arg.size());
            std::uint64_t v = globalNumber(arg, pos, comma, "each value");
            if (width < 8 && (v >> (8 * width)) != 0)
                throw InputError(SourceLoc{"--global", 1, static_cast<int>(pos) + 1},
                                 fmt::format("--global: {} does not fit {}", v, type));
            for (int b = 0; b < width; ++b)
                bytes.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
            pos = comma + 1;
        }
    }
    if (bytes.empty())
        throw InputError(SourceLoc{"--global", 1, static_cast<int>(eq) + 2},
                         "--global gives no bytes at " + arg.substr(0, eq));
    return {address, std::move(bytes)};
}

/** `text` less the blanks at both ends; `first` is moved to the first kept character. */
std::string trimmed(const std::string& text, std::size_t& first) {
    std::size_t b = text.find_first_not_of(" \t\r");
    if (b == std::string::npos) return first += text.size(), std::string();
    std::size_t e = text.find_last_not_of(" \t\r");
    first += b;
    return text.substr(b, e - b + 1);
}

/** A parameter field and the value given for it. */
struct GivenField {
    std::pair<std::string, std::uint64_t> key; ///< (NAME, OFFSET)
    std::uint64_t value = 0;
};

/**
 * NAME=VALUE or NAME+OFFSET=VALUE (blanks allowed around '=', '+'): `at` is where `p` starts
 * (its column counts from 1), `what` prefixes the messages ("--param ", or "" in a file).
 */
GivenField parseParam(const std::string& p, const SourceLoc& at, const std::string& what) {
    auto loc = [&](std::size_t pos) {
        return SourceLoc{at.file, at.line, at.col + static_cast<int>(pos)};
    };
    std::size_t eq = p.find('=');
    std::size_t plus = p.rfind('+', eq);
    std::size_t namePos = 0;
    std::string name =
        eq == std::string::npos ? std::string() : trimmed(p.substr(0, std::min(eq, plus)), namePos);
    if (eq == std::string::npos || name.empty()) {
        std::size_t lead = 0;
        std::string shown = trimmed(p, lead);
        if (!what.empty())
            throw InputError(loc(0),
                             what + "takes NAME=VALUE or NAME+OFFSET=VALUE, got '" + p + "'");
        throw InputError(loc(lead), "a line gives a field as NAME = VALUE or NAME+OFFSET = "
                                    "VALUE, got '" +
                                        shown + "'");
    }
    GivenField g;
    if (plus != std::string::npos) {
        std::size_t at0 = plus + 1;
        std::string text = trimmed(p.substr(plus + 1, eq - plus - 1), at0);
        bool hex = text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0;
        try {
            std::size_t used = 0;
            g.key.second = std::stoull(hex ? text.substr(2) : text, &used, hex ? 16 : 10);
            if (used + (hex ? 2 : 0) != text.size() || text[hex ? 2 : 0] == '-')
                throw std::invalid_argument(text);
        } catch (const std::exception&) {
            throw InputError(loc(at0), (what.empty() ? "field " : what) + name +
                                           "+OFFSET: the offset is a byte count "
                                           "(decimal or 0x), got '" +
                                           text + "'");
        }
    }
    g.key.first = name;
    std::size_t valuePos = eq + 1;
    std::string value = trimmed(p.substr(eq + 1), valuePos);
    std::string field =
        name + (plus == std::string::npos ? std::string() : "+" + std::to_string(g.key.second));
    if (value == "?")
        throw InputError(loc(valuePos), (what.empty() ? "field " : what) + field +
                                            " has no value yet ('?'): write the value the "
                                            "host passes");
    try {
        std::size_t used = 0;
        if (!value.empty() && value[0] == '-') throw std::invalid_argument(value);
        g.value = std::stoull(value, &used, 0);
        if (used != value.size()) throw std::invalid_argument(value);
    } catch (const std::exception&) {
        throw InputError(loc(valuePos), (what.empty() ? "field " + field : what + p.substr(0, eq)) +
                                            " needs an integer value, got '" + value + "'");
    }
    return g;
}

/** "0+8" ("0" at offset 0; a name as given). */
std::string fieldName(const std::pair<std::string, std::uint64_t>& key) {
    return key.second ? fmt::format("{}+{}", key.first, key.second) : key.first;
}

/**
 * --params FILE: one field a line, as --param writes it (NAME[+OFFSET] = VALUE); '#' starts a
 * comment, blank lines are skipped.
 */
void readParamsFile(const std::string& path, kernel::Launch& l) {
    std::ifstream in(path);
    if (!in) throw InputError(SourceLoc{"--params", 1, 1}, "--params: cannot read '" + path + "'");
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        std::string text = line.substr(0, line.find('#'));
        if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
        GivenField g = parseParam(text, SourceLoc{path, n, 1}, "");
        SourceLoc where{path, n, static_cast<int>(text.find_first_not_of(" \t")) + 1};
        auto [old, fresh] = l.fileParams.emplace(g.key, g.value);
        if (!fresh && old->second != g.value)
            throw InputError(where, fmt::format("field {} is given twice in this file, {} and {}",
                                                fieldName(g.key), old->second, g.value));
        l.paramWhere.emplace(g.key, where);
    }
}

/** --param-bytes NAME=FILE: the parameter's name and the file's bytes. */
std::pair<std::string, std::vector<std::uint8_t>> dumpedParam(const std::string& arg) {
    std::size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size())
        throw InputError(SourceLoc{"--param-bytes", 1, 1},
                         "--param-bytes takes NAME=FILE, got '" + arg + "'");
    std::string path = arg.substr(eq + 1);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(SourceLoc{"--param-bytes", 1, static_cast<int>(eq) + 2},
                         "--param-bytes: cannot read '" + path + "'");
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
    return {arg.substr(0, eq), std::move(bytes)};
}

kernel::Launch launchOf(const KernelArgs& a) {
    kernel::Launch l;
    l.entry = a.entry;
    if (!a.block.empty()) l.block = dims(a.block, "--block");
    if (!a.cluster.empty()) l.cluster = dims(a.cluster, "--cluster");
    if (!a.grid.empty()) l.grid = dims(a.grid, "--grid");
    if (!a.paramsFile.empty()) readParamsFile(a.paramsFile, l);
    for (const std::string& p : a.paramBytes) {
        auto [name, bytes] = dumpedParam(p);
        l.paramBytes[name] = std::move(bytes);
    }
    for (const std::string& p : a.params) {
        GivenField g = parseParam(p, SourceLoc{"--param", 1, 1}, "--param ");
        l.params[g.key] = g.value;
    }
    for (const std::string& g : a.globals) {
        auto [address, bytes] = globalBytes(g);
        auto next = l.globals.lower_bound(address);
        bool overlaps = (next != l.globals.end() && next->first < address + bytes.size()) ||
                        (next != l.globals.begin() &&
                         std::prev(next)->first + std::prev(next)->second.size() > address);
        if (overlaps)
            throw InputError(SourceLoc{"--global", 1, 1},
                             "--global " + g + " overlaps bytes another --global gives");
        l.globals.emplace(address, std::move(bytes));
    }
    l.dynamicShared = a.dynamicSmem;
    l.maxSteps = a.maxSteps;
    l.tiles = a.tiles;
    l.listParams = a.listParams;
    return l;
}

/** The `.loc` line of the PTX line an event is at, when the module has one. */
const kernel::CudaLine* cudaLineOf(const engine::EventRef& e, const kernel::KernelProgram& k) {
    auto cuda = k.cudaLines.find(e.loc.line);
    return cuda != k.cudaLines.end() ? &cuda->second : nullptr;
}

/**
 * "CTA 0 warp 4: mbarrier.try_wait... at gemm.ptx:120:5 (pipeline.h:88)": the innermost CUDA
 * line; `chain` adds its call sites, ", inlined at gemm.cu:40" (one line for JSON).
 */
std::string eventText(const engine::EventRef& e, const kernel::KernelProgram& k, bool chain) {
    std::string who = e.thread >= 0 && static_cast<std::size_t>(e.thread) < k.threadNames.size()
                          ? k.threadNames[static_cast<std::size_t>(e.thread)]
                          : std::string("init");
    std::string s =
        fmt::format("{}: {}{} at {}", who, e.text, engine::mbarrierText(e), e.loc.str());
    if (e.iteration >= 0) s += fmt::format(" (iteration {})", e.iteration);
    if (const kernel::CudaLine* cuda = cudaLineOf(e, k))
        s += " (" +
             (chain ? kernel::cudaText(*cuda) : fmt::format("{}:{}", cuda->file, cuda->line)) + ")";
    if (!e.note.empty()) s += " [" + e.note + "]";
    return s;
}

/** The text output's lines under an event: "inlined at FILE:LINE", one per call site. */
std::string callSites(const engine::EventRef& e, const kernel::KernelProgram& k,
                      const std::string& indent) {
    std::string s;
    if (const kernel::CudaLine* cuda = cudaLineOf(e, k))
        for (const kernel::SourceLine& caller : cuda->inlinedAt)
            s += fmt::format("{}inlined at {}:{}\n", indent, caller.file, caller.line);
    return s;
}

/** Whether `text` holds `name` as a whole word ("(write response_0)" holds response_0). */
bool namesWord(const std::string& text, const std::string& name) {
    auto isPart = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
        const std::size_t end = at + name.size();
        if ((at == 0 || !isPart(text[at - 1])) && (end == text.size() || !isPart(text[end])))
            return true;
    }
    return false;
}

/**
 * The locations a flag's witnesses name, in the order the events name them: an mbarrier
 * operation's barrier, and the locations its instruction's text names ("(write response_0)";
 * among those its PTX line names in any thread or iteration).
 */
std::vector<std::string> locationsOf(const engine::RaisedFlag& f, const kernel::KernelProgram& k) {
    std::vector<std::string> out;
    auto add = [&out](const std::string& name) {
        if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    };
    for (const auto& w : f.witnesses)
        for (const auto& e : w) {
            if (!e.barrier.empty()) add(e.barrier);
            auto at = k.locationsAt.find(e.loc.line);
            if (at == k.locationsAt.end()) continue;
            for (const std::string& name : at->second)
                if (namesWord(e.text, name)) add(name);
        }
    return out;
}

/**
 * "full_bar_0: first named by mbarrier.init... at k.ptx:60:2 (k.cu:60)": where a location the
 * extraction named comes from in the code.
 */
std::string firstUseText(const std::string& name, const kernel::KernelProgram& k) {
    auto use = k.firstUse.find(name);
    if (use == k.firstUse.end()) return name;
    const auto& [loc, opcode] = use->second;
    auto cuda = k.cudaLines.find(loc.line);
    return fmt::format("{}: first named by {} at {}{}", name, opcode, loc.str(),
                       cuda != k.cudaLines.end() ? " (" + kernel::cudaText(cuda->second) + ")"
                                                 : std::string());
}

/** JSON: the CUDA lines of PTX line `ptxLine`, the innermost first, then its call sites. */
nlohmann::ordered_json sourcesJson(int ptxLine, const kernel::KernelProgram& k) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    auto cuda = k.cudaLines.find(ptxLine);
    if (cuda != k.cudaLines.end())
        for (const kernel::SourceLine& f : cuda->second.frames())
            out.push_back({{"file", f.file}, {"line", f.line}});
    return out;
}

/** JSON: a location and the first instruction that names it, with its CUDA lines. */
nlohmann::ordered_json firstUseJson(const std::string& name, const kernel::KernelProgram& k) {
    nlohmann::ordered_json j{{"name", name}};
    auto use = k.firstUse.find(name);
    if (use == k.firstUse.end()) return j;
    const auto& [loc, opcode] = use->second;
    j["first_named_by"] = opcode;
    j["ptx"] = loc.str();
    j["sources"] = sourcesJson(loc.line, k);
    return j;
}

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
                std::cout << "    " << eventText(e, k, false) << '\n'
                          << callSites(e, k, "        ");
        }
        const std::vector<std::string> named = locationsOf(f, k);
        if (!named.empty()) std::cout << "  in the code:\n";
        for (const std::string& name : named)
            std::cout << "    " << firstUseText(name, k) << '\n';
    }
    if (r.observation == engine::Observation::Deadlock) {
        bad = true;
        std::cout << "\nHang: no execution completes:\n";
        for (const auto& b : r.deadlockedWaits)
            std::cout << "  " << (b.wait ? eventText(*b.wait, k, false) : b.reason)
                      << (b.wait && !b.reason.empty() ? " (" + b.reason + ")" : "") << '\n'
                      << (b.wait ? callSites(*b.wait, k, "      ") : std::string());
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
        // each event's CUDA lines, as the witnesses list the events
        fj["sources"] = nlohmann::ordered_json::array();
        for (const auto& w : f.witnesses) {
            nlohmann::ordered_json wj = nlohmann::ordered_json::array();
            nlohmann::ordered_json sj = nlohmann::ordered_json::array();
            for (const auto& e : w) {
                wj.push_back(eventText(e, k, true));
                sj.push_back(sourcesJson(e.loc.line, k));
            }
            fj["witnesses"].push_back(wj);
            fj["sources"].push_back(sj);
        }
        fj["locations"] = nlohmann::ordered_json::array();
        for (const std::string& name : locationsOf(f, k))
            fj["locations"].push_back(firstUseJson(name, k));
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

/** The field an extraction error asks for ("... add --param 0+344=VALUE"), or "". */
std::string fieldAskedFor(const std::string& message) {
    std::size_t add = message.rfind("add --param ");
    if (add == std::string::npos) return "";
    std::string rest = message.substr(add + 12);
    return rest.substr(0, rest.find('='));
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
        return {kernel::Note{e.loc(), e.message()}};
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
            if (std::string asked = fieldAskedFor(n.text); !asked.empty()) add(asked, "an operand");
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
    const kernel::Module m = kernel::parseModuleFile(a.file);
    const kernel::Launch launch = launchOf(a);
    if (a.listParams) return listParams(m, launch, a);
    kernel::KernelProgram k = kernel::extractKernel(m, launch);
    warnUnread(k.unread);
    noteUnsizedCluster(kernel::pickEntry(m, launch.entry), launch);
    double extractSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
    if (k.test.threads.empty())
        throw InputError(SourceLoc{a.file, 0, 0},
                         "entry " + k.test.name +
                             " has no memory or synchronization instruction "
                             "ptxmc checks under this launch");
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
    // a flag's witness must not move when --readings is added: the smallest, not the first found
    options.canonicalWitnesses = true;
    Progress progress("checking " + k.test.name, a.progressAfter, stderrIsTerminal(), std::cerr);
    engine::CheckResult r = checkProgram(program, *model, options, a.readings);
    progress.finish(); // the line goes before the report is printed
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
    sub->add_option("--entry", args->entry,
                    "the .entry to check (a substring of its name); "
                    "needed when the module has several");
    sub->add_option("--block", args->block,
                    "threads per CTA, X[,Y,Z]; default: .reqntid or .maxntid");
    sub->add_option("--cluster", args->cluster,
                    "CTAs per cluster, X[,Y,Z]; default: "
                    ".reqnctapercluster, else 1");
    sub->add_option("--grid", args->grid,
                    "CTAs in the grid, X[,Y,Z] (what %nctaid reads); "
                    "default: one cluster. Only one cluster is checked");
    sub->add_option("--param", args->params,
                    "a kernel parameter's value, NAME=VALUE (NAME: the PTX name, its _param_N "
                    "suffix or its index), or a field of a struct parameter, NAME+OFFSET=VALUE "
                    "(OFFSET in bytes, decimal or 0x; as wide as the load that reads it); once "
                    "per field")
        ->take_all()
        ->expected(1)
        ->allow_extra_args(false);
    sub->add_option("--global", args->globals,
                    "global memory the host wrote before the launch, which the kernel's loads "
                    "read (sequence lengths, a tile count): ADDRESS=TYPE:V,V,... (TYPE u8, u16, "
                    "u32 or u64) or ADDRESS=@FILE (its bytes); give the pointer parameter the "
                    "ADDRESS with --param")
        ->take_all()
        ->expected(1)
        ->allow_extra_args(false);
    sub->add_option("--dynamic-smem", args->dynamicSmem, "bytes of dynamic shared memory");
    sub->add_option("--tiles", args->tiles,
                    "tiles the checked cluster runs where clusterlaunchcontrol.try_cancel "
                    "schedules them: the first N-1 requests each cancel the next cluster of the "
                    "grid (--grid must hold N clusters), the next one fails; default 2")
        ->check(CLI::Range(1, 64));
    sub->add_option("--max-steps", args->maxSteps,
                    "instructions one thread may execute before ptxmc calls its loop unbounded");
    sub->add_flag("--emit-litmus", args->emitLitmus,
                  "print the extracted program as a litmus test (ptxmc check reads it) and stop");
    sub->add_flag("--readings", args->readings,
                  "also check under every reading of the PTX text's open questions");
    sub->add_flag("--stats", args->stats, "print the extraction's figures and times");
    CLI::Option* listParams =
        sub->add_flag("--list-params", args->listParams,
                      "evaluate as far as the given values go, list every parameter field read "
                      "(given or not) and where threads stopped; no check");
    sub->add_flag("--all", args->listAll,
                  "with --list-params: go on past the fields a branch needs (1 stands for each) "
                  "and list every field the run needs at once")
        ->needs(listParams);
    sub->add_option("--param-bytes", args->paramBytes,
                    "a parameter's bytes as the host built them, NAME=FILE (a dump written by "
                    "ptxmc/params_dump.h): every field of it is known; --param and --params "
                    "override a field")
        ->take_all()
        ->expected(1)
        ->allow_extra_args(false);
    sub->add_option("--params", args->paramsFile,
                    "a file of parameter fields, one NAME[+OFFSET] = VALUE a line ('#' starts a "
                    "comment; --params-out writes one); --param overrides its values");
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

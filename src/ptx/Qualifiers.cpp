// Qualifier bookkeeping for instruction decoding.
#include "ptx/Qualifiers.hpp"

#include <regex>

namespace ptxmc::ptx {

Qualifiers::Qualifiers(const litmus::Instruction& inst, std::size_t skip)
    : inst_(inst), used_(inst.parts.size(), false), skip_(skip) {
    for (std::size_t i = 0; i < skip && i < used_.size(); ++i)
        used_[i] = true;
}

bool Qualifiers::take(const std::string& q) {
    for (std::size_t i = skip_; i < inst_.parts.size(); ++i) {
        if (!used_[i] && inst_.parts[i] == q) {
            used_[i] = true;
            return true;
        }
    }
    return false;
}

std::optional<std::string> Qualifiers::takeOneOf(std::initializer_list<const char*> options) {
    for (std::size_t i = skip_; i < inst_.parts.size(); ++i) {
        if (used_[i]) continue;
        for (const char* o : options) {
            if (inst_.parts[i] == o) {
                used_[i] = true;
                return inst_.parts[i];
            }
        }
    }
    return std::nullopt;
}

std::optional<std::string>
Qualifiers::takeIf(const std::function<bool(const std::string&)>& match) {
    for (std::size_t i = skip_; i < inst_.parts.size(); ++i) {
        if (!used_[i] && match(inst_.parts[i])) {
            used_[i] = true;
            return inst_.parts[i];
        }
    }
    return std::nullopt;
}

std::optional<std::string> Qualifiers::takePrefixed(const std::string& prefix) {
    for (std::size_t i = skip_; i < inst_.parts.size(); ++i) {
        if (!used_[i] && inst_.parts[i].rfind(prefix, 0) == 0) {
            used_[i] = true;
            return inst_.parts[i].substr(prefix.size());
        }
    }
    return std::nullopt;
}

std::vector<std::string> Qualifiers::takeTypes() {
    static const std::regex type("(b|u|s|f)(8|16|32|64)|pred");
    std::vector<std::string> out;
    for (std::size_t i = skip_; i < inst_.parts.size(); ++i) {
        if (!used_[i] && std::regex_match(inst_.parts[i], type)) {
            used_[i] = true;
            out.push_back(inst_.parts[i]);
        }
    }
    return out;
}

SourceLoc Qualifiers::locOf(std::size_t part) const {
    SourceLoc loc = inst_.loc;
    std::size_t offset = 0;
    for (std::size_t i = 0; i < part && i < inst_.parts.size(); ++i)
        offset += inst_.parts[i].size() + 1;
    loc.col += static_cast<int>(offset);
    return loc;
}

void Qualifiers::finish() const {
    for (std::size_t i = skip_; i < inst_.parts.size(); ++i) {
        if (!used_[i]) {
            throw InputError(locOf(i), "unknown or misplaced qualifier '." + inst_.parts[i] +
                                           "' in '" + inst_.opcode + "'");
        }
    }
}

} // namespace ptxmc::ptx

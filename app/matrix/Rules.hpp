// The PTX ISA rules the reordering tables cite: section number, HTML anchor, one-line summary.
#pragma once

#include "ptx/Sections.hpp"

#include <string>
#include <utility>
#include <vector>

namespace ptxmc::matrix {

struct Rule {
    /** Rule `name` of section `sec` (number and anchor from ptx/Sections.cpp), saying `text`. */
    Rule(std::string name, ptx::Sec sec, std::string text)
        : key(std::move(name)), section(ptx::section(sec).number), anchor(ptx::section(sec).anchor),
          summary(std::move(text)) {}

    std::string key;     ///< short name used by cells, e.g. "pipelined"
    std::string section; ///< the section number, from ptx::section (ptx::sectionsIsaVersion)
    std::string anchor;  ///< HTML anchor (stable across PTX versions), without '#'
    std::string summary; ///< what the rule says, in one line
};

/** Every rule, in the order the documents list them. */
const std::vector<Rule>& rules();

/** The rule with this key; throws std::out_of_range for an unknown key (a generator bug). */
const Rule& rule(const std::string& key);

/** The rule's page on docs.nvidia.com. */
std::string ruleUrl(const Rule& r);

} // namespace ptxmc::matrix

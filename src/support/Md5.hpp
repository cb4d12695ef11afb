// MD5 (RFC 1321): the digest herd7's `Hash=` lines use; not for anything needing security.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace ptxmc {

/** The 16-byte MD5 digest of `data`. */
std::array<std::uint8_t, 16> md5(const std::string& data);

/** The digest as raw bytes in a string (herd hashes digests of digests). */
std::string md5Raw(const std::string& data);

/** The digest as 32 lowercase hexadecimal digits. */
std::string md5Hex(const std::string& data);

} // namespace ptxmc

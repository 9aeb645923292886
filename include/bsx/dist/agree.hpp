// bsx/dist/agree.hpp: how the ranks of a collective operation agree on its failure. Each
// rank runs its part; before the next collective, one MPI_Allreduce tells every rank whether
// any part threw and whether every rank was asked the same thing, and then either every rank
// goes on or every rank throws the same exception. No rank is left waiting in a collective
// that another rank has left.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "../shape/broadcast_error.hpp"
#include "partition.hpp"

namespace bsx::dist::detail {

/// The string `text` holds on `root`, on every rank. Collective.
inline std::string broadcast_string(std::string text, int root, MPI_Comm comm) {
    int length = int(text.size());
    MPI_Bcast(&length, 1, MPI_INT, root, comm);
    text.resize(std::size_t(length));
    MPI_Bcast(text.data(), length, MPI_CHAR, root, comm);
    return text;
}

/// The exceptions every rank can rebuild: the standard ones bsx throws, by what they are
/// (the most derived first); any other type travels as the standard exception it derives
/// from, std::runtime_error if none.
enum class failure_kind : int { runtime, broadcast, invalid_argument, length, out_of_range, logic, bad_alloc };

inline std::pair<failure_kind, std::string> describe_failure(const std::exception_ptr& error) {
    try {
        std::rethrow_exception(error);
    } catch (const broadcast_error& e) {
        return {failure_kind::broadcast, e.what()};
    } catch (const std::invalid_argument& e) {
        return {failure_kind::invalid_argument, e.what()};
    } catch (const std::length_error& e) {
        return {failure_kind::length, e.what()};
    } catch (const std::out_of_range& e) {
        return {failure_kind::out_of_range, e.what()};
    } catch (const std::logic_error& e) {
        return {failure_kind::logic, e.what()};
    } catch (const std::bad_alloc& e) {
        return {failure_kind::bad_alloc, e.what()};
    } catch (const std::exception& e) {
        return {failure_kind::runtime, e.what()};
    } catch (...) {
        return {failure_kind::runtime, "bsx::dist: an exception of a type not derived from std::exception"};
    }
}

/// The exception an agreement last threw on this thread. Every rank throws it, so an
/// enclosing agreement that catches it passes it on without a vote: a rank whose part
/// failed outside any inner agreement has voted in the enclosing one, and the other ranks'
/// inner vote was that same vote.
inline std::exception_ptr& agreed_exception() noexcept {
    thread_local std::exception_ptr agreed;
    return agreed;
}

template <class E>
[[noreturn]] void throw_agreed(E&& e) {
    agreed_exception() = std::make_exception_ptr(std::forward<E>(e));
    std::rethrow_exception(agreed_exception());
}

[[noreturn]] inline void throw_failure(failure_kind kind, const std::string& what) {
    switch (kind) {
        case failure_kind::broadcast:
            throw_agreed(broadcast_error(what));
        case failure_kind::invalid_argument:
            throw_agreed(std::invalid_argument(what));
        case failure_kind::length:
            throw_agreed(std::length_error(what));
        case failure_kind::out_of_range:
            throw_agreed(std::out_of_range(what));
        case failure_kind::logic:
            throw_agreed(std::logic_error(what));
        case failure_kind::bad_alloc:
            throw_agreed(std::bad_alloc());
        case failure_kind::runtime:
            break;
    }
    throw_agreed(std::runtime_error(what));
}

/// 64-bit FNV-1a: the digest of a signature that the ranks compare.
inline std::uint64_t digest_of(std::string_view text) noexcept {
    std::uint64_t h = 14695981039346656037u;
    for (const char c : text) h = (h ^ std::uint8_t(c)) * 1099511628211u;
    return h;
}

/// Throws std::invalid_argument on every rank, naming what rank 0 and the lowest rank asked
/// something else were each asked to do. Collective; called when the digests differ.
[[noreturn]] inline void throw_disagreement(std::string_view operation, const std::string& signature, MPI_Comm comm) {
    const std::string first = broadcast_string(signature, 0, comm);
    const int ranks = size_of(comm);
    int other = signature == first ? ranks : rank_in(comm);
    MPI_Allreduce(MPI_IN_PLACE, &other, 1, MPI_INT, MPI_MIN, comm);
    const std::string second = other == ranks ? first : broadcast_string(signature, other, comm);
    throw_agreed(std::invalid_argument("bsx::dist: " + std::string(operation) + ": the ranks disagree: rank 0 does " +
                                       first + "; rank " + std::to_string(other) + " does " + second));
}

/// Runs work() on this rank, then agrees with every rank of comm (collective): every rank
/// returns, or every rank throws the exception of the lowest rank whose work threw, rebuilt
/// as the standard exception it is or derives from, with its what(). `operation` and a
/// non-empty `signature` (what this rank was asked to do: the shapes of the operands, their
/// rows, axes, roots) name a call: where the ranks' signatures differ, which would leave
/// their next collectives unmatched, every rank throws std::invalid_argument naming them
/// instead. Every collective of bsx::dist follows an agreement with nothing between them
/// that may throw, and every operation ends with one.
template <class Work>
void agree(MPI_Comm comm, std::string_view operation, const std::string& signature, Work&& work) {
    std::exception_ptr error;
    try {
        std::forward<Work>(work)();
    } catch (...) {
        error = std::current_exception();
        if (error == agreed_exception()) throw;
    }
    const int ranks = size_of(comm), me = rank_in(comm);
    // The lowest failing rank, and the least and greatest digest as min(d) and ~min(~d);
    // a rank without a signature leaves both alone.
    const std::uint64_t digest = signature.empty() ? ~std::uint64_t{0} : digest_of(signature);
    std::uint64_t vote[3] = {std::uint64_t(error ? me : ranks), digest,
                             signature.empty() ? ~std::uint64_t{0} : ~digest};
    MPI_Allreduce(MPI_IN_PLACE, vote, 3, MPI_UINT64_T, MPI_MIN, comm);
    if (vote[1] != ~vote[2] && !(vote[1] == ~std::uint64_t{0} && vote[2] == ~std::uint64_t{0}))
        throw_disagreement(operation, signature, comm);
    if (vote[0] == std::uint64_t(ranks)) return;
    const int first = int(vote[0]);
    auto [kind, what] = me == first ? describe_failure(error) : std::pair<failure_kind, std::string>{};
    int code = int(kind);
    MPI_Bcast(&code, 1, MPI_INT, first, comm);
    throw_failure(failure_kind(code), broadcast_string(std::move(what), first, comm));
}

/// The same for a step of an operation whose call the ranks have already agreed on.
template <class Work>
void agree(MPI_Comm comm, Work&& work) {
    agree(comm, {}, {}, std::forward<Work>(work));
}

}  // namespace bsx::dist::detail

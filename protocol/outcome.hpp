// A value or the error that prevented it, for results whose error is not the
// engine's RuleError (a malformed message, a record that does not replay).
// Bad input is a value here, never an exception.
#pragma once

#include <utility>
#include <variant>

namespace sparts {

template <class T, class E>
class Outcome {
public:
    Outcome(T value) : v_(std::in_place_index<0>, std::move(value)) {}
    Outcome(E error) : v_(std::in_place_index<1>, std::move(error)) {}
    explicit operator bool() const { return v_.index() == 0; }
    T& value() { return std::get<0>(v_); }
    const T& value() const { return std::get<0>(v_); }
    const E& error() const { return std::get<1>(v_); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }

private:
    std::variant<T, E> v_;
};

}  // namespace sparts

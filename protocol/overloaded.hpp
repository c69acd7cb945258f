// A visitor made of lambdas, for std::visit: overloaded{[](const A&) {...}, [](const B&) {...}}.
#pragma once

namespace sparts {

template <class... F>
struct overloaded : F... {
    using F::operator()...;
};
template <class... F>
overloaded(F...) -> overloaded<F...>;

}  // namespace sparts

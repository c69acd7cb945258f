// Boost.Asio and Boost.Beast, compiled once for every target that links
// sparts::asio (net/CMakeLists.txt defines BOOST_ASIO_SEPARATE_COMPILATION and
// BOOST_BEAST_SEPARATE_COMPILATION for them all).
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>

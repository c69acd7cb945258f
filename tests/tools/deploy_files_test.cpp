#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

std::string read(const std::string& relative) {
    std::ifstream in(std::string(SPARTS_SOURCE_DIR) + "/" + relative);
    REQUIRE_MESSAGE(in, relative);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::set<std::string> words(const std::string& text) {
    std::set<std::string> out;
    std::istringstream in(text);
    for (std::string w; in >> w;)
        if (w != "\\") out.insert(w);
    return out;
}

}  // namespace

TEST_CASE("the Dockerfile's build stage installs exactly the packages of scripts/install-deps.sh") {
    const std::string script = read("scripts/install-deps.sh");
    std::smatch m;
    REQUIRE(std::regex_search(script, m, std::regex(R"(\npackages=\(([^)]*)\))")));
    const auto from_script = words(m[1]);
    CHECK(from_script.count("libboost1.81-dev") == 1);

    const std::string docker = read("Dockerfile");
    const auto build_stage = docker.substr(0, docker.find("\nFROM ", docker.find("FROM ") + 1));
    REQUIRE(std::regex_search(build_stage, m, std::regex(R"(--no-install-recommends\s*\\?\s*([^&]*)&&)")));
    const auto from_docker = words(m[1]);
    CHECK(from_docker == from_script);
}

TEST_CASE("the deployment files probe the endpoints the server serves") {
    const std::string k8s = read("deploy/kubernetes/sparts.yaml");
    CHECK(k8s.find("path: /healthz") != std::string::npos);
    CHECK(k8s.find("path: /readyz") != std::string::npos);
    CHECK(read("Dockerfile").find("/healthz") != std::string::npos);
    CHECK(read("deploy/nginx/sparts.conf").find("location /ws") != std::string::npos);
}

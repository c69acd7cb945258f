#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tools/run_program.hpp"

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

std::vector<std::string> deploy_lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::size_t deploy_indent(const std::string& line) {
    const auto first = line.find_first_not_of(' ');
    return first == std::string::npos ? line.size() : first;
}

bool deploy_blank_or_comment(const std::string& line) {
    const auto first = line.find_first_not_of(" \t");
    return first == std::string::npos || line[first] == '#';
}

// A setting's default where a file leaves it out: server/base/config.hpp's
// (`int drain_ms = 1500;`), so that the files' arithmetic follows the server's.
int deploy_config_default(const std::string& member) {
    const std::string header = read("server/base/config.hpp");
    std::smatch m;
    REQUIRE_MESSAGE(std::regex_search(header, m, std::regex("\\bint " + member + R"(\s*=\s*(\d+)\s*;)")),
                    "server/base/config.hpp has no default for " << member);
    return std::stoi(m[1]);
}

// The longest a node may take to stop after SIGTERM (server/app/server.cpp's drain()):
// --drain-ms not ready, then up to --shutdown-seconds for its tables to be handed
// over, then up to --shutdown-seconds again for its connections to close.
double deploy_longest_stop_seconds(int drain_ms, int shutdown_seconds) {
    return drain_ms / 1000.0 + 2.0 * shutdown_seconds;
}

// The block scalar `haproxy.cfg: |` of a Kubernetes ConfigMap, unindented.
std::string deploy_configmap_haproxy(const std::string& yaml) {
    const auto lines = deploy_lines(yaml);
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!std::regex_match(lines[i], std::regex(R"(\s*haproxy\.cfg:\s*\|\s*)"))) continue;
        const std::size_t key = deploy_indent(lines[i]);
        std::size_t body = std::string::npos;
        for (std::size_t j = i + 1; j < lines.size(); ++j) {
            const std::string& line = lines[j];
            if (line.find_first_not_of(' ') == std::string::npos) {
                out += "\n";
                continue;
            }
            if (deploy_indent(line) <= key) break;
            if (body == std::string::npos) body = deploy_indent(line);
            out += line.substr(std::min(body, deploy_indent(line))) + "\n";
        }
        break;
    }
    return out;
}

// Each server (and server-template) line of an HAProxy configuration, with the
// words it has from the default-server lines before it (of `defaults` and of its
// own section), as HAProxy reads them.
struct DeployServer {
    std::string line;
    std::set<std::string> words;
};

std::vector<DeployServer> deploy_haproxy_servers(const std::string& cfg) {
    static const std::set<std::string> sections = {"global",  "defaults", "frontend", "backend", "listen",
                                                   "resolvers", "peers",  "userlist", "program", "cache",
                                                   "ring",    "mailers",  "http-errors"};
    std::vector<DeployServer> out;
    std::set<std::string> from_defaults, from_section;
    bool in_defaults = false;
    for (const std::string& raw : deploy_lines(cfg)) {
        if (deploy_blank_or_comment(raw)) continue;
        const std::string line = raw.substr(0, raw.find(" #"));
        std::istringstream in(line);
        std::vector<std::string> w;
        for (std::string s; in >> s;) w.push_back(s);
        if (sections.count(w[0])) {
            in_defaults = w[0] == "defaults";
            from_section = from_defaults;
            continue;
        }
        if (w[0] == "default-server") {
            from_section.insert(w.begin() + 1, w.end());
            if (in_defaults) from_defaults = from_section;
        } else if (w[0] == "server" || w[0] == "server-template") {
            DeployServer s{line, from_section};
            s.words.insert(w.begin() + 1, w.end());
            out.push_back(s);
        }
    }
    return out;
}

std::optional<std::string> deploy_program_on_path(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        if (dir.empty()) continue;
        const auto candidate = std::filesystem::path(dir) / name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
    return std::nullopt;
}

// `NAME: value` in a compose service's block (the value unquoted).
std::optional<std::string> deploy_compose_env(const std::string& block, const std::string& name) {
    std::smatch m;
    if (!std::regex_search(block, m, std::regex("\\b" + name + R"re(:[ \t]*"?([^"\n]*?)"?[ \t]*(\n|$))re")))
        return std::nullopt;
    return m[1].str();
}

// compose's services, each with its block of lines.
std::map<std::string, std::string> deploy_compose_services(const std::string& yaml) {
    std::map<std::string, std::string> out;
    bool in_services = false;
    std::string current;
    for (const std::string& line : deploy_lines(yaml)) {
        if (deploy_blank_or_comment(line)) continue;
        if (deploy_indent(line) == 0) {
            in_services = line.rfind("services:", 0) == 0;
            current.clear();
            continue;
        }
        if (!in_services) continue;
        std::smatch m;
        if (deploy_indent(line) == 2 && std::regex_match(line, m, std::regex(R"(  ([A-Za-z0-9._-]+):\s*)"))) {
            current = m[1];
            out[current];
        } else if (!current.empty()) {
            out[current] += line + "\n";
        }
    }
    return out;
}

std::vector<std::string> deploy_yaml_documents(const std::string& yaml) {
    std::vector<std::string> out(1);
    for (const std::string& line : deploy_lines(yaml)) {
        if (line == "---") {
            out.emplace_back();
            continue;
        }
        out.back() += line + "\n";
    }
    return out;
}

// A container's environment variable in a Kubernetes document, flow
// (`- {name: N, value: V}`) or block (`- name: N` then `value: V`) style.
std::optional<std::string> deploy_k8s_env(const std::string& doc, const std::string& name) {
    std::smatch m;
    if (!std::regex_search(doc, m, std::regex("name:\\s*" + name + R"re(\s*[,\n]\s*value:\s*"?([^"},\n]*)"?)re")))
        return std::nullopt;
    return m[1].str();
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
    const std::string cluster = read("deploy/kubernetes/cluster.yaml");
    CHECK(cluster.find("GET /readyz") != std::string::npos);
    CHECK(cluster.find("GET /healthz") != std::string::npos);
}

TEST_CASE("the HAProxy configurations, compose's and the Kubernetes ConfigMap's, pass haproxy -c") {
    const std::string k8s_cfg = deploy_configmap_haproxy(read("deploy/kubernetes/cluster.yaml"));
    REQUIRE_MESSAGE(k8s_cfg.find("backend nodes") != std::string::npos,
                    "deploy/kubernetes/cluster.yaml has no ConfigMap key haproxy.cfg with a backend");
    const auto haproxy = deploy_program_on_path("haproxy");
    if (!haproxy) {
        MESSAGE("SKIPPED: haproxy is not on PATH, so the HAProxy files were not checked by haproxy -c "
                "(apt-get install haproxy)");
        return;
    }
    const auto dir = sparts::test::scratch_dir("deploy-haproxy-" + std::to_string(::getpid()));
    sparts::test::write_whole(dir / "kubernetes.cfg", k8s_cfg);
    const std::vector<std::filesystem::path> files = {std::filesystem::path(SPARTS_SOURCE_DIR) / "deploy/haproxy/haproxy.cfg",
                                                      dir / "kubernetes.cfg"};
    for (const auto& file : files) {
        CAPTURE(file.string());
        const auto out = dir / "haproxy-c.out";
        const std::string command = sparts::test::quoted(*haproxy) + " -c -f " + sparts::test::quoted(file.string()) +
                                    " >" + sparts::test::quoted(out.string()) + " 2>&1";
        const int status = std::system(command.c_str());
        const std::string said = sparts::test::read_whole(out);
        CAPTURE(said);
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);
        CHECK(said.find("Configuration file is valid") != std::string::npos);
        CHECK(said.find("[ALERT]") == std::string::npos);
        // The one warning allowed: a node's name that does not resolve on this machine
        // (node1 is compose's), which init-addr ... none turns into a server left down
        // until the resolvers find it. Any other warning is a mistake in the file.
        for (const std::string& line : deploy_lines(said))
            if (line.find("[WARNING]") != std::string::npos)
                CHECK_MESSAGE(line.find("could not resolve address") != std::string::npos, line);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("every HAProxy server line sends the PROXY v2 header, checks and all, and the backend hashes the table on /readyz") {
    const std::map<std::string, std::string> configs = {
        {"deploy/haproxy/haproxy.cfg", read("deploy/haproxy/haproxy.cfg")},
        {"deploy/kubernetes/cluster.yaml's ConfigMap", deploy_configmap_haproxy(read("deploy/kubernetes/cluster.yaml"))}};
    // No structured binding: CAPTURE's lambda may not capture one (clang 15).
    for (const auto& entry : configs) {
        const std::string& name = entry.first;
        const std::string& cfg = entry.second;
        CAPTURE(name);
        const auto servers = deploy_haproxy_servers(cfg);
        CHECK(!servers.empty());
        for (const auto& s : servers) {
            CAPTURE(s.line);
            CHECK(s.words.count("send-proxy-v2") == 1);
            CHECK(s.words.count("check-send-proxy") == 1);
            CHECK(s.words.count("check") == 1);
            CHECK(s.words.count("no-send-proxy-v2") == 0);
            CHECK(s.words.count("no-check") == 0);
            CHECK(s.words.count("no-check-send-proxy") == 0);
        }
        CHECK(std::regex_search(cfg, std::regex(R"(\n\s*balance\s+url_param\s+table\s*\n)")));
        CHECK(std::regex_search(cfg, std::regex(R"(\n\s*hash-type\s+consistent\s*\n)")));
        CHECK(std::regex_search(cfg, std::regex(R"(\n\s*option\s+httpchk\s+GET\s+/readyz\s*\n)")));
        CHECK(std::regex_search(cfg, std::regex(R"(\n\s*option\s+redispatch\b)")));
        CHECK(std::regex_search(cfg, std::regex(R"(\n\s*timeout\s+tunnel\s)")));
        CHECK(std::regex_search(cfg, std::regex(R"(\n\s*timeout\s+check\s)")));
    }
}

TEST_CASE("the compose cluster gives each node its own id, the PROXY protocol from HAProxy's network, PostgreSQL and time to drain") {
    const std::string yaml = read("deploy/compose/cluster.yaml");
    const auto services = deploy_compose_services(yaml);
    REQUIRE(services.count("postgres") == 1);
    REQUIRE(services.count("haproxy") == 1);
    CHECK(services.at("postgres").find("image: postgres:15") != std::string::npos);
    CHECK(services.at("postgres").find("pg_isready") != std::string::npos);
    CHECK(services.at("haproxy").find("image: haproxy:2.6") != std::string::npos);
    CHECK(services.at("haproxy").find("../haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg") != std::string::npos);

    std::smatch m;
    REQUIRE_MESSAGE(std::regex_search(yaml, m, std::regex(R"(subnet:\s*"?([0-9a-fA-F.:]+/\d+))")),
                    "the compose network needs a fixed subnet for SPARTS_TRUSTED_PROXIES to name");
    const std::string subnet = m[1];
    const int default_drain_ms = deploy_config_default("drain_ms");
    const int default_shutdown_seconds = deploy_config_default("shutdown_seconds");

    std::set<std::string> ids, hosts;
    for (const auto& service : services) {
        const std::string& name = service.first;
        const std::string& block = service.second;
        // The nodes: the services built from the repository's Dockerfile.
        if (block.find("build:") == std::string::npos && block.find("image: sparts:") == std::string::npos) continue;
        CAPTURE(name);
        hosts.insert(name);
        const auto id = deploy_compose_env(block, "SPARTS_NODE_ID");
        REQUIRE(id);
        CHECK(std::regex_match(*id, std::regex(R"([A-Za-z0-9._-]+)")));
        CHECK_MESSAGE(ids.insert(*id).second, "node id " << *id << " given twice");
        CHECK(deploy_compose_env(block, "SPARTS_PROXY_PROTOCOL") == std::optional<std::string>("v2"));
        const auto trusted = deploy_compose_env(block, "SPARTS_TRUSTED_PROXIES");
        REQUIRE(trusted);
        CHECK_MESSAGE(trusted->find(subnet) != std::string::npos, "HAProxy's network " << subnet << " is not trusted");
        const auto database = deploy_compose_env(block, "SPARTS_DATABASE");
        REQUIRE(database);
        CHECK(database->rfind("postgresql://", 0) == 0);
        // The password comes from the environment (deploy/compose/.env), never from the file.
        CHECK(std::regex_search(*database, std::regex(R"(^postgresql://[^:@/]+:\$\{SPARTS_DB_PASSWORD[:?}])")));
        CHECK(block.find("condition: service_healthy") != std::string::npos);

        const auto drain = deploy_compose_env(block, "SPARTS_DRAIN_MS");
        const auto shutdown = deploy_compose_env(block, "SPARTS_SHUTDOWN_SECONDS");
        const double longest = deploy_longest_stop_seconds(drain ? std::stoi(*drain) : default_drain_ms,
                                                           shutdown ? std::stoi(*shutdown) : default_shutdown_seconds);
        REQUIRE(std::regex_search(block, m, std::regex(R"(stop_grace_period:\s*(\d+)s)")));
        CHECK_MESSAGE(std::stoi(m[1]) > longest, "stop_grace_period " << m[1] << "s, a node may take " << longest << " s");
    }
    CHECK(ids.size() >= 2);
    CHECK(ids.size() == hosts.size());
    CHECK(yaml.find("POSTGRES_PASSWORD: ${SPARTS_DB_PASSWORD:?") != std::string::npos);

    // The HAProxy file compose mounts names exactly these services.
    std::set<std::string> named;
    for (const auto& s : deploy_haproxy_servers(read("deploy/haproxy/haproxy.cfg"))) {
        REQUIRE(std::regex_search(s.line, m, std::regex(R"(server\s+\S+\s+([A-Za-z0-9._-]+):8080\b)")));
        named.insert(m[1]);
    }
    CHECK(named == hosts);
}

TEST_CASE("the Kubernetes cluster names each node by its pod, speaks the PROXY protocol, reads PostgreSQL's URL from a Secret and gives time to drain") {
    const auto docs = deploy_yaml_documents(read("deploy/kubernetes/cluster.yaml"));
    const std::string* nodes = nullptr;
    for (const auto& d : docs)
        if (d.find("kind: Deployment") != std::string::npos && d.find("SPARTS_NODE_ID") != std::string::npos) nodes = &d;
    REQUIRE_MESSAGE(nodes, "no Deployment sets SPARTS_NODE_ID");
    const std::string& n = *nodes;
    std::smatch m;

    REQUIRE(std::regex_search(n, m, std::regex(R"(\breplicas:\s*(\d+))")));
    CHECK(std::stoi(m[1]) >= 2);
    // Unique per node: the pod's name, through the downward API.
    CHECK(std::regex_search(n, std::regex(R"(name:\s*SPARTS_NODE_ID\s*\n\s*valueFrom:\s*\n\s*fieldRef:\s*\{?\s*fieldPath:\s*metadata\.name\b)")));
    CHECK(deploy_k8s_env(n, "SPARTS_PROXY_PROTOCOL") == std::optional<std::string>("v2"));
    const auto trusted = deploy_k8s_env(n, "SPARTS_TRUSTED_PROXIES");
    REQUIRE(trusted);
    CHECK(std::regex_match(*trusted, std::regex(R"([0-9a-fA-F.:/,]+)")));

    // The database's URL comes from a Secret of this file, a postgresql:// one.
    REQUIRE(std::regex_search(
        n, m, std::regex(R"(name:\s*SPARTS_DATABASE\s*\n\s*valueFrom:\s*\n\s*secretKeyRef:\s*\{\s*name:\s*([\w.-]+),\s*key:\s*([\w.-]+)\s*\})")));
    const std::string secret = m[1], key = m[2];
    bool found = false;
    for (const auto& d : docs)
        if (d.find("kind: Secret") != std::string::npos && std::regex_search(d, std::regex("\\bname:\\s*" + secret + "\\s*\\n"))) {
            found = true;
            CHECK(std::regex_search(d, std::regex("\\n\\s*" + key + R"(:\s*"?postgresql://)")));
        }
    CHECK_MESSAGE(found, "no Secret " << secret);

    const auto drain = deploy_k8s_env(n, "SPARTS_DRAIN_MS");
    const auto shutdown = deploy_k8s_env(n, "SPARTS_SHUTDOWN_SECONDS");
    const double longest =
        deploy_longest_stop_seconds(drain ? std::stoi(*drain) : deploy_config_default("drain_ms"),
                                    shutdown ? std::stoi(*shutdown) : deploy_config_default("shutdown_seconds"));
    REQUIRE(std::regex_search(n, m, std::regex(R"(terminationGracePeriodSeconds:\s*(\d+))")));
    CHECK_MESSAGE(std::stoi(m[1]) > longest, "terminationGracePeriodSeconds " << m[1] << ", a node may take " << longest << " s");

    // Rolling upgrades and voluntary disruptions take one node at a time.
    bool budget = false;
    for (const auto& d : docs)
        if (d.find("kind: PodDisruptionBudget") != std::string::npos) budget = d.find("maxUnavailable: 1") != std::string::npos;
    CHECK(budget);

    // HAProxy's server-template names a headless Service of this file.
    const std::string cfg = deploy_configmap_haproxy(read("deploy/kubernetes/cluster.yaml"));
    REQUIRE(std::regex_search(cfg, m, std::regex(R"(server-template\s+\S+\s+\d+\s+([a-z0-9-]+)\.)")));
    const std::string service = m[1];
    bool headless = false;
    for (const auto& d : docs)
        if (d.find("kind: Service") != std::string::npos &&
            std::regex_search(d, std::regex("\\bname:\\s*" + service + "\\s*\\n")))
            headless = d.find("clusterIP: None") != std::string::npos;
    CHECK_MESSAGE(headless, "no headless Service " << service);
}

namespace {

// One path of an Ingress rule: what it matches and the Service port it sends to.
struct IngressPath {
    std::string path, type, service, port;
};

struct IngressDoc {
    std::string name, class_name;
    std::map<std::string, std::string> annotations;
    std::set<std::string> tls_hosts, tls_secrets, rule_hosts;
    std::vector<IngressPath> paths;
    bool default_backend = false;
};

std::string ingress_unquoted(std::string s) {
    if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) s = s.substr(1, s.size() - 2);
    return s;
}

// The lines under `key:` (more indented than it), from line i on.
std::vector<std::string> ingress_block(const std::vector<std::string>& lines, std::size_t i) {
    std::vector<std::string> out;
    const std::size_t key = deploy_indent(lines[i]);
    for (std::size_t j = i + 1; j < lines.size(); ++j) {
        if (deploy_blank_or_comment(lines[j])) continue;
        if (deploy_indent(lines[j]) <= key) break;
        out.push_back(lines[j]);
    }
    return out;
}

// The Ingresses of a file of Kubernetes documents, read as their YAML says (flow or block style
// for a backend's service; a path written in a way not read here fails the test, never passes it).
std::vector<IngressDoc> ingress_docs(const std::string& yaml) {
    std::vector<IngressDoc> out;
    for (const std::string& doc : deploy_yaml_documents(yaml)) {
        if (!std::regex_search(doc, std::regex(R"((^|\n)kind:\s*Ingress\s*\n)"))) continue;
        IngressDoc in;
        in.default_backend = std::regex_search(doc, std::regex(R"(\n\s*defaultBackend:)"));
        const auto lines = deploy_lines(doc);
        std::smatch m;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const std::string& line = lines[i];
            if (deploy_blank_or_comment(line)) continue;
            if (in.name.empty() && std::regex_match(line, m, std::regex(R"(  name:\s*([\w.-]+)\s*)"))) in.name = m[1];
            if (std::regex_match(line, std::regex(R"(\s*annotations:\s*)")))
                for (const std::string& a : ingress_block(lines, i))
                    if (std::regex_match(a, m, std::regex(R"(\s*([\w./-]+):\s*(.*?)\s*)"))) in.annotations[m[1]] = ingress_unquoted(m[2]);
            if (std::regex_match(line, std::regex(R"(\s*tls:\s*)"))) {
                for (const std::string& t : ingress_block(lines, i)) {
                    if (std::regex_search(t, m, std::regex(R"(secretName:\s*([\w.-]+))"))) in.tls_secrets.insert(m[1]);
                    if (std::regex_search(t, m, std::regex(R"(hosts:\s*\[([^\]]*)\])"))) {
                        std::stringstream hosts(m[1].str());
                        for (std::string h; std::getline(hosts, h, ',');)
                            in.tls_hosts.insert(ingress_unquoted(std::regex_replace(h, std::regex(R"(^\s+|\s+$)"), "")));
                    } else if (std::regex_match(t, m, std::regex(R"(\s*-\s*([\w.-]+\.[\w.-]+)\s*)"))) {
                        in.tls_hosts.insert(m[1]);
                    }
                }
            }
            if (std::regex_match(line, m, std::regex(R"(\s*ingressClassName:\s*(\S+)\s*)"))) in.class_name = ingress_unquoted(m[1]);
            if (std::regex_match(line, m, std::regex(R"(\s*-\s*host:\s*(\S+)\s*)"))) in.rule_hosts.insert(ingress_unquoted(m[1]));
            if (std::regex_match(line, m, std::regex(R"((\s*)-\s*path:\s*(\S+)\s*)"))) {
                IngressPath p;
                p.path = ingress_unquoted(m[2]);
                const std::size_t dash = m[1].length();
                std::string entry;
                for (std::size_t j = i + 1; j < lines.size(); ++j) {
                    if (deploy_blank_or_comment(lines[j])) continue;
                    if (deploy_indent(lines[j]) <= dash) break;
                    entry += lines[j] + "\n";
                }
                CAPTURE(entry);
                REQUIRE_MESSAGE(std::regex_search(entry, m, std::regex(R"(pathType:\s*(\w+))")), "path " << p.path << " has no pathType");
                p.type = m[1];
                const bool flow = std::regex_search(
                    entry, m, std::regex(R"(service:\s*\{\s*name:\s*([\w.-]+)\s*,\s*port:\s*\{\s*(?:name|number):\s*([\w-]+)\s*\}\s*\})"));
                const bool block = !flow && std::regex_search(
                    entry, m, std::regex(R"(service:\s*\n\s*name:\s*([\w.-]+)\s*\n\s*port:\s*\n\s*(?:name|number):\s*([\w-]+))"));
                REQUIRE_MESSAGE((flow || block), "path " << p.path << ": its backend service is not read here");
                p.service = m[1];
                p.port = m[2];
                in.paths.push_back(p);
            }
        }
        out.push_back(in);
    }
    return out;
}

// Whether an Ingress path sends `request` (a path, no query) to its backend: Kubernetes' Exact
// and Prefix (by whole path elements); ImplementationSpecific as ingress-nginx's string prefix.
bool ingress_routes(const IngressPath& p, const std::string& request) {
    if (p.type == "Exact") return request == p.path;
    if (p.type == "Prefix") {
        std::string prefix = p.path;
        while (prefix.size() > 1 && prefix.back() == '/') prefix.pop_back();
        return prefix == "/" || request == prefix || request.rfind(prefix + "/", 0) == 0;
    }
    return request.rfind(p.path, 0) == 0;
}

const IngressDoc* ingress_routing(const std::vector<IngressDoc>& ingresses, const std::string& request,
                                  const IngressPath** path = nullptr) {
    for (const auto& in : ingresses)
        for (const auto& p : in.paths)
            if (ingress_routes(p, request)) {
                if (path) *path = &p;
                return &in;
            }
    return nullptr;
}

// The image of a document's container named `name`.
std::optional<std::string> ingress_container_image(const std::string& doc, const std::string& name) {
    std::smatch m;
    if (!std::regex_search(doc, m, std::regex("-\\s*name:\\s*" + name + R"(\s*\n(?:\s*#[^\n]*\n)*\s*image:\s*(\S+))")))
        return std::nullopt;
    return m[1].str();
}

// An image a cluster can pull: a registry's host before the first '/' (a dot, a port or localhost)
// and a tag other than latest, or a digest.
bool ingress_pullable_image(const std::string& image) {
    std::smatch m;
    if (!std::regex_match(image, m, std::regex(R"(([^/]+)/([^@:]+)(?::([\w][\w.-]*))?(@sha256:[0-9a-f]{64})?)"))) return false;
    const std::string host = m[1];
    const bool registry = host.find('.') != std::string::npos || host.find(':') != std::string::npos || host == "localhost";
    const bool pinned = m[4].matched || (m[3].matched && m[3] != "latest");
    return registry && pinned;
}

// The bodies of an nginx file's blocks `word ... { ... }` (comments already taken off).
std::vector<std::string> nginx_blocks(const std::string& text, const std::string& word) {
    std::vector<std::string> out;
    const std::regex head("(^|[\\s;{}])" + word + R"(\b[^{;]*\{)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), head); it != std::sregex_iterator(); ++it) {
        const std::size_t start = static_cast<std::size_t>(it->position(0) + it->length(0));
        std::size_t i = start;
        for (int depth = 1; i < text.size() && depth > 0; ++i) depth += text[i] == '{' ? 1 : text[i] == '}' ? -1 : 0;
        out.push_back(text.substr(start, i - 1 - start));
    }
    return out;
}

// A block's body without its inner blocks: its own directives.
std::string nginx_top_level(const std::string& body) {
    std::string out;
    int depth = 0;
    for (const char c : body) {
        if (c == '}') --depth;
        if (depth == 0) out += c;
        if (c == '{') ++depth;
    }
    return out;
}

}  // namespace

TEST_CASE("the single-node Kubernetes file lets players in through an Ingress with TLS, the public paths only, and trusts the controller's X-Forwarded-For") {
    const std::string yaml = read("deploy/kubernetes/sparts.yaml");
    const auto docs = deploy_yaml_documents(yaml);
    const std::string* pod = nullptr;
    const std::string* service = nullptr;
    std::string service_name;
    std::smatch m;
    for (const auto& d : docs) {
        if (d.find("kind: StatefulSet") != std::string::npos) pod = &d;
        if (std::regex_search(d, std::regex(R"((^|\n)kind:\s*Service\s*\n)")) &&
            std::regex_search(d, m, std::regex(R"(\n  name:\s*([\w.-]+)\s*\n)"))) {
            service = &d;
            service_name = m[1];
        }
    }
    REQUIRE_MESSAGE(pod, "no StatefulSet");
    REQUIRE_MESSAGE(service, "no Service");

    // The image is one a cluster can pull, from a registry, at a version: not a local `sparts:latest`.
    const auto image = ingress_container_image(*pod, "sparts");
    REQUIRE(image);
    CAPTURE(*image);
    CHECK(ingress_pullable_image(*image));

    const auto ingresses = ingress_docs(yaml);
    REQUIRE_MESSAGE(!ingresses.empty(), "no Ingress: nothing reaches the ClusterIP Service from outside the cluster");
    std::set<std::string> hosts;
    for (const auto& in : ingresses) {
        CAPTURE(in.name);
        CHECK_MESSAGE(!in.default_backend, "a defaultBackend sends every path, /metrics and /admin/ too");
        // TLS for every host it serves, from a Secret.
        CHECK(!in.tls_secrets.empty());
        CHECK(!in.rule_hosts.empty());
        for (const auto& h : in.rule_hosts) CHECK_MESSAGE(in.tls_hosts.count(h) == 1, "host " << h << " has no TLS");
        hosts.insert(in.rule_hosts.begin(), in.rule_hosts.end());
        // Every backend is the Service's port, whose target is the container's port.
        CHECK(!in.paths.empty());
        for (const auto& p : in.paths) {
            CAPTURE(p.path);
            CHECK(p.service == service_name);
            const bool named = std::regex_search(*service, std::regex("-\\s*name:\\s*" + p.port + R"(\s*\n\s*port:\s*\d+)"));
            const bool numbered = std::regex_search(*service, std::regex(R"(\n\s*port:\s*)" + p.port + R"(\s*\n)"));
            CHECK_MESSAGE((named || numbered), "the Service has no port " << p.port);
            CHECK(std::regex_match(p.type, std::regex("Exact|Prefix")));
        }
    }
    CHECK(hosts.size() >= 1);
    REQUIRE(std::regex_search(*service, m, std::regex(R"(targetPort:\s*([\w-]+))")));
    CHECK(std::regex_search(*pod, std::regex("-\\s*name:\\s*" + m[1].str() + R"(\s*\n\s*containerPort:\s*\d+)")));

    // What players use is routed: the web client, the WebSocket, the archive.
    for (const std::string public_path : {"/", "/index.html", "/favicon.svg", "/app/app.js", "/lib/client.js", "/ws", "/api/games",
                                          "/api/leaderboard/spades"}) {
        CAPTURE(public_path);
        CHECK(ingress_routing(ingresses, public_path));
    }
    // What is the operator's is not (as deploy/nginx/sparts.conf and deploy/haproxy/haproxy.cfg keep it).
    for (const std::string private_path : {"/metrics", "/metrics/", "/admin", "/admin/", "/admin/tables", "/admin/bans"}) {
        CAPTURE(private_path);
        CHECK_FALSE(ingress_routing(ingresses, private_path));
    }

    // The WebSocket outlives ingress-nginx's default 60 s without a frame.
    const IngressPath* ws_path = nullptr;
    const IngressDoc* ws = ingress_routing(ingresses, "/ws", &ws_path);
    REQUIRE(ws);
    const int idle = deploy_config_default("idle_timeout_seconds");
    for (const std::string key : {"nginx.ingress.kubernetes.io/proxy-read-timeout", "nginx.ingress.kubernetes.io/proxy-send-timeout"}) {
        CAPTURE(key);
        REQUIRE(ws->annotations.count(key) == 1);
        CHECK(std::stoi(ws->annotations.at(key)) >= 2 * idle);
    }
    // A login arrives in the page's address (/?login=JWT), then in the Referer of the page's files:
    // ingress-nginx's log format writes both, so the page's Ingress logs nothing.
    for (const std::string page : {"/", "/app/app.js", "/lib/client.js", "/favicon.svg"}) {
        CAPTURE(page);
        const IngressDoc* in = ingress_routing(ingresses, page);
        REQUIRE(in);
        const auto log = in->annotations.find("nginx.ingress.kubernetes.io/enable-access-log");
        CHECK((log != in->annotations.end() && log->second == "false"));
    }

    // ingress-nginx names the player in X-Forwarded-For from the controller's pods, whose addresses
    // are the pod network's: the server must trust that network (not every address) and read the
    // header, not wait for a PROXY protocol header the controller never sends.
    const auto trusted = deploy_k8s_env(*pod, "SPARTS_TRUSTED_PROXIES");
    REQUIRE_MESSAGE(trusted, "behind the ingress controller every player would count as its address");
    std::stringstream networks(*trusted);
    int named = 0;
    for (std::string net; std::getline(networks, net, ',');) {
        CAPTURE(net);
        ++named;
        REQUIRE(std::regex_match(net, m, std::regex(R"(\s*[0-9a-fA-F.:]+(?:/(\d+))?\s*)")));
        if (m[1].matched) CHECK(std::stoi(m[1]) > 0);
    }
    CHECK(named >= 1);
    const auto proxy_protocol = deploy_k8s_env(*pod, "SPARTS_PROXY_PROTOCOL");
    CHECK((!proxy_protocol || *proxy_protocol == "off"));
    for (const auto& in : ingresses) {
        CAPTURE(in.name);
        CHECK(in.class_name == "nginx");
        for (const auto& a : in.annotations)
            CHECK_MESSAGE(a.first.find("use-proxy-protocol") == std::string::npos, a.first);
    }
}

TEST_CASE("the Kubernetes cluster's image comes from a registry and its HAProxy keeps /metrics and /admin/ private") {
    const std::string yaml = read("deploy/kubernetes/cluster.yaml");
    const auto docs = deploy_yaml_documents(yaml);
    const std::string* nodes = nullptr;
    for (const auto& d : docs)
        if (d.find("kind: Deployment") != std::string::npos && d.find("SPARTS_NODE_ID") != std::string::npos) nodes = &d;
    REQUIRE(nodes);
    const auto image = ingress_container_image(*nodes, "sparts");
    REQUIRE(image);
    CAPTURE(*image);
    CHECK(ingress_pullable_image(*image));
    const std::string cfg = deploy_configmap_haproxy(yaml);
    CHECK(std::regex_search(cfg, std::regex(R"(http-request\s+deny\b[^\n]*\{\s*path\s+/metrics\s*\})")));
    CHECK(std::regex_search(cfg, std::regex(R"(http-request\s+deny\b[^\n]*\{\s*path_beg\s+/admin/\s*\})")));
}

TEST_CASE("the shipped proxies log no query string and no Referer, where a login travels in the page's address") {
    // nginx: the file's own log format, without the variables that hold the query ($request is
    // the request line) or the Referer, and every request a file's locations answer logged with it
    // (by its server block, or by each location where the file's locations go in a site's block).
    std::smatch m;
    for (const std::string file : {"deploy/nginx/sparts.conf", "deploy/nginx/sparts-subpath.conf"}) {
        CAPTURE(file);
        const std::string nginx = std::regex_replace(read(file), std::regex(R"(#[^\n]*)"), "");
        REQUIRE_MESSAGE(std::regex_search(nginx, m, std::regex(R"(\blog_format\s+([\w-]+)\s+([^;]*);)")),
                        "no log_format of its own: nginx's combined format logs $request and $http_referer");
        const std::string format = m[1], fields = m[2];
        CAPTURE(fields);
        CHECK_FALSE(std::regex_search(fields, std::regex(R"(\$\{?(request|request_uri|args|query_string|is_args|http_referer)\b(?![_\w]))")));
        // A query parameter by name, the table's alone (/ws?table=ID: no secret).
        CHECK_FALSE(std::regex_search(fields, std::regex(R"(\$\{?arg_(?!table\b))")));
        const std::regex uses_format(R"(\baccess_log\s+\S+\s+)" + format + R"(\b)");
        const auto servers = nginx_blocks(nginx, "server");
        CHECK(!servers.empty());
        for (const auto& server : servers) {
            CAPTURE(server);
            const bool whole_server = std::regex_search(nginx_top_level(server), uses_format);
            const auto locations = nginx_blocks(server, "location");
            CHECK((whole_server || !locations.empty()));
            if (!whole_server)
                for (const auto& location : locations) {
                    CAPTURE(location);
                    CHECK(std::regex_search(location, uses_format));
                }
        }
        const std::regex access_log(R"(\baccess_log\s+([^;]*);)");
        for (auto it = std::sregex_iterator(nginx.begin(), nginx.end(), access_log); it != std::sregex_iterator(); ++it) {
            const std::string directive = (*it)[1];
            CAPTURE(directive);
            CHECK((directive == "off" || std::regex_search(directive, std::regex("\\s" + format + "\\b"))));
        }
    }

    // HAProxy: not option httplog's format (its %r is the request line, query and all), but one
    // with the path alone; no captured Referer.
    const std::map<std::string, std::string> configs = {
        {"deploy/haproxy/haproxy.cfg", read("deploy/haproxy/haproxy.cfg")},
        {"deploy/kubernetes/cluster.yaml's ConfigMap", deploy_configmap_haproxy(read("deploy/kubernetes/cluster.yaml"))}};
    for (const auto& entry : configs) {
        const std::string& name = entry.first;
        const std::string cfg = std::regex_replace(entry.second, std::regex(R"(#[^\n]*)"), "");
        CAPTURE(name);
        CHECK_FALSE(std::regex_search(cfg, std::regex(R"(\n\s*option\s+https?log\b)")));
        REQUIRE(std::regex_search(cfg, m, std::regex(R"(\n\s*log-format\s+([^\n]*))")));
        const std::string log_format = m[1];
        CAPTURE(log_format);
        CHECK_FALSE(std::regex_search(log_format, std::regex(R"(%(\{[^}]*\})?(r|HU|HQ)(?![A-Za-z]))")));
        CHECK_FALSE(std::regex_search(log_format, std::regex(R"(%\[\s*(url|query|req\.hdr\(\s*referer|capture\.req\.uri))", std::regex::icase)));
        CHECK_FALSE(std::regex_search(cfg, std::regex(R"(capture\s+request\s+header\s+referer)", std::regex::icase)));
    }
}

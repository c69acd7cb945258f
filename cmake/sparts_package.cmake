# The Debian package of the server (`cpack --config build/CPackConfig.cmake -B
# build/package` after a build; deploy/README.md): sparts-server with the web client inside it, the `sparts`
# and `sparts-bot` command lines, the systemd unit of deploy/systemd, the
# settings file of deploy/debian (a conffile: an upgrade keeps the host's edits)
# and maintainer scripts that make the `sparts` system user. Its dependencies
# are read off the binaries by dpkg-shlibdeps (dpkg-dev), so they name exactly
# the bookworm libraries this build linked. tests/package/check_debian_package.py
# builds and checks it.
install(TARGETS sparts_server_main sparts_cli RUNTIME DESTINATION bin)
if(TARGET sparts_bot)
  install(TARGETS sparts_bot RUNTIME DESTINATION bin)
endif()
# Debian's units live in /lib/systemd/system and its settings in /etc whatever the
# install prefix (/usr): absolute destinations.
install(FILES ${PROJECT_SOURCE_DIR}/deploy/systemd/sparts.service DESTINATION /lib/systemd/system)
install(FILES ${PROJECT_SOURCE_DIR}/deploy/debian/sparts.conf DESTINATION /etc/sparts)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/OPERATING.md
        DESTINATION share/doc/sparts)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME sparts)
set(CPACK_PACKAGE_VENDOR "the sparts project")
set(CPACK_PACKAGE_CONTACT "sparts maintainers <sparts@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "card-table server for Sparts, Spartsel, Spades and Hearts")
set(CPACK_PACKAGE_DESCRIPTION
    "An authoritative multiplayer game server for trick-taking card games: it deals, checks every\n"
    "action, keeps cards secret, scores, and serves its web client, over WebSocket and HTTP.")
string(JOIN " " CPACK_PACKAGE_DESCRIPTION ${CPACK_PACKAGE_DESCRIPTION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# adduser for the postinst's system user.
set(CPACK_DEBIAN_PACKAGE_DEPENDS adduser)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/deploy/debian/postinst
                                       ${PROJECT_SOURCE_DIR}/deploy/debian/prerm
                                       ${PROJECT_SOURCE_DIR}/deploy/debian/postrm
                                       ${PROJECT_SOURCE_DIR}/deploy/debian/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# gzip: quick to build in the tests; dpkg reads it everywhere.
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
include(CPack)

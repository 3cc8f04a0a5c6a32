package io.jdbcrepl.config;

/** {@code repl.install}: whether the driver creates its own tables when they are missing. */
public enum InstallMode {
    /** Create missing tables on connect. */
    AUTO,
    /** Never create them; fail clearly when they are missing. */
    NONE
}

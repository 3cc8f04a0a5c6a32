package io.jdbcrepl.config;

/** {@code repl.supplemental}: which old values an UPDATE logs (SPEC 3.3). */
public enum SupplementalMode {
    /** Key columns, assigned columns and the log groups that apply. */
    KEYS,
    /** Every column. */
    ALL
}

package io.jdbcrepl.cli;

/** A wrong command line; its message is one line that names the problem, without any secret. */
final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}

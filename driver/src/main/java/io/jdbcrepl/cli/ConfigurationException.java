package io.jdbcrepl.cli;

import io.jdbcrepl.config.ReplConfig;
import io.jdbcrepl.intercept.SqlState;

import java.sql.SQLException;
import java.util.Properties;

/**
 * A configuration that cannot work (the URL, a repl.* key, a file repl.config names): exit code 2,
 * like a wrong command line, not 1 (the operation ran and failed). Keeps the cause's message and
 * SQLState.
 */
final class ConfigurationException extends SQLException {
    private static final long serialVersionUID = 1L;

    private ConfigurationException(SQLException cause) {
        super(cause.getMessage(), cause.getSQLState(), cause.getErrorCode(), cause);
    }

    /** The configuration of {@code url}: whatever loading it rejects is a configuration error. */
    static ReplConfig load(String url, Properties info) throws ConfigurationException {
        try {
            return ReplConfig.load(url, info);
        } catch (SQLException e) {
            throw new ConfigurationException(e);
        }
    }

    /**
     * Whether a failure is the configuration's: loading rejected it, or the driver found a key's value
     * or a rule across keys wrong (SQLState 22023, the driver's code for those: handlers, repl.driver,
     * peers) when it checked the rest on connecting.
     */
    static boolean is(SQLException e) {
        return e instanceof ConfigurationException || SqlState.INVALID_PARAMETER_VALUE.is(e.getSQLState());
    }
}

package io.jdbcrepl.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.SQLException;
import java.util.Properties;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Test helpers: configurations from key/value pairs, and SQLException checks. */
final class Configs {

    static final String URL = "jdbc:repl:h2:mem:test";

    private Configs() {}

    static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }

    static ReplConfig load(String... kv) throws SQLException {
        return ReplConfig.load(URL, props(kv));
    }

    /** Loading fails with this SQLState; returns the exception for more checks. */
    static SQLException fails(String state, String... kv) {
        return fails(state, () -> load(kv));
    }

    static SQLException fails(String state, ThrowingCallable call) {
        SQLException e = catchThrowableOfType(SQLException.class, call);
        assertThat((Throwable) e).as("expected an SQLException with SQLState " + state).isNotNull();
        assertThat(e.getSQLState()).as(e.getMessage()).isEqualTo(state);
        return e;
    }
}

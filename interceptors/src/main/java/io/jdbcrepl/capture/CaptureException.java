package io.jdbcrepl.capture;

import io.jdbcrepl.intercept.SqlState;
import java.sql.SQLException;

/** A statement that cannot be captured: SQLState 0AR01, with a message that says what to change. */
public final class CaptureException extends SQLException {

    public CaptureException(String message) {
        super(message, SqlState.REFUSED.code());
    }
}

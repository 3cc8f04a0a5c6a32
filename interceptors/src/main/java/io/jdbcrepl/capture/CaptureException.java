package io.jdbcrepl.capture;

import java.sql.SQLException;

/** A statement that cannot be captured: SQLState 0A000, with a message that says what to change. */
public final class CaptureException extends SQLException {

    public CaptureException(String message) {
        super(message, "0A000");
    }
}

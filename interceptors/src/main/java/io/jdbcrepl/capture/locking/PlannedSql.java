package io.jdbcrepl.capture.locking;

import java.util.List;

/**
 * SQL text of the driver's own and what to bind to its {@code ?}, in order: an entry {@code n > 0}
 * is the application's parameter n, {@link #DRIVER} the next value the driver supplies (keys).
 */
public record PlannedSql(String text, List<Integer> parameters) {

    /** A parameter the driver binds itself, not one of the application's. */
    public static final int DRIVER = 0;

    public PlannedSql {
        parameters = List.copyOf(parameters);
    }

    /** How many values the driver binds. */
    public int driverValues() {
        return (int) parameters.stream().filter(p -> p == DRIVER).count();
    }
}

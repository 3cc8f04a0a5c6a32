package io.jdbcrepl.it.support;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * What the driver logs while it is open: java.util.logging records of the {@code io.jdbcrepl}
 * loggers at every level, and whatever is written to {@code System.err} and {@code System.out}
 * (where slf4j-simple writes). For checks such as "a password never appears in the logs". The
 * vendor drivers' own debug logging (pgjdbc logs rejected URLs at FINE) is theirs and left out.
 * Not for use from parallel tests.
 */
public final class LogCapture implements AutoCloseable {

    private final ByteArrayOutputStream streams = new ByteArrayOutputStream();
    private final StringBuilder records = new StringBuilder();
    private final PrintStream originalErr = System.err;
    private final PrintStream originalOut = System.out;
    private final Logger driverLogger = Logger.getLogger("io.jdbcrepl");
    private final Level originalLevel = driverLogger.getLevel();
    private final Handler handler = new Handler() {
        private final SimpleFormatter formatter = new SimpleFormatter();

        @Override
        public void publish(LogRecord record) {
            synchronized (records) {
                records.append(formatter.format(record));
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private LogCapture() {
        PrintStream tee = new PrintStream(streams, true, StandardCharsets.UTF_8);
        System.setErr(tee);
        System.setOut(tee);
        handler.setLevel(Level.ALL);
        driverLogger.addHandler(handler);
        driverLogger.setLevel(Level.ALL);
    }

    public static LogCapture start() {
        return new LogCapture();
    }

    /** All captured output so far. */
    public String text() {
        synchronized (records) {
            return records + streams.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        System.setErr(originalErr);
        System.setOut(originalOut);
        driverLogger.removeHandler(handler);
        driverLogger.setLevel(originalLevel);
    }
}

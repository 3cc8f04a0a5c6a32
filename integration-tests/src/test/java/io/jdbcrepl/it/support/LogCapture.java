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

    /**
     * Also captures DEBUG of the named driver loggers where slf4j-simple logs at INFO: its level,
     * fixed when a logger is created, is set on the logger instance (the same one the driver's
     * DriverLog holds) and put back on {@link #close}.
     */
    public static LogCapture withDebug(String... loggers) {
        LogCapture capture = new LogCapture();
        for (String name : loggers) capture.debug(name);
        return capture;
    }

    private final java.util.Map<Object, Integer> slf4jLevels = new java.util.HashMap<>();

    private void debug(String name) {
        Object logger = org.slf4j.LoggerFactory.getLogger(name);
        try {
            java.lang.reflect.Field level = Class.forName("org.slf4j.simple.SimpleLogger").getDeclaredField("currentLogLevel");
            level.setAccessible(true);
            slf4jLevels.putIfAbsent(logger, level.getInt(logger));
            level.setInt(logger, org.slf4j.spi.LocationAwareLogger.DEBUG_INT);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("slf4j-simple is expected on the test class path: " + e, e);
        }
    }

    /**
     * The captured lines with their level (slf4j-simple's {@code [thread] LEVEL name - message},
     * java.util.logging's {@code LEVEL: message}); a line without one (a stack trace) has its record's.
     */
    public java.util.List<java.util.Map.Entry<String, String>> leveledLines() {
        java.util.regex.Pattern slf4j = java.util.regex.Pattern.compile("^\\[[^\\]]*\\] (TRACE|DEBUG|INFO|WARN|ERROR) ");
        java.util.regex.Pattern jul = java.util.regex.Pattern.compile("^(SEVERE|WARNING|INFO|CONFIG|FINE|FINER|FINEST): ");
        java.util.List<java.util.Map.Entry<String, String>> out = new java.util.ArrayList<>();
        String level = "UNKNOWN";
        for (String line : text().split("\\R")) {
            java.util.regex.Matcher m = slf4j.matcher(line);
            java.util.regex.Matcher j = jul.matcher(line);
            if (m.find()) level = m.group(1);
            else if (j.find()) level = switch (j.group(1)) {
                case "SEVERE" -> "ERROR";
                case "WARNING" -> "WARN";
                case "INFO" -> "INFO";
                default -> "DEBUG";
            };
            out.add(java.util.Map.entry(level, line));
        }
        return out;
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
        slf4jLevels.forEach((logger, level) -> {
            try {
                java.lang.reflect.Field f = Class.forName("org.slf4j.simple.SimpleLogger").getDeclaredField("currentLogLevel");
                f.setAccessible(true);
                f.setInt(logger, level);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        });
    }
}

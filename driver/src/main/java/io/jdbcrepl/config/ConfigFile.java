package io.jdbcrepl.config;

import io.jdbcrepl.intercept.SqlState;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/** Reads the file named by {@code repl.config}: {@code file:/path} or {@code classpath:name}. */
final class ConfigFile {

    private ConfigFile() {}

    /** The file's keys, all repl.* and none of them repl.config. */
    static Map<String, String> read(String location) throws SQLException {
        String key = ReplProperty.CONFIG.key();
        Properties props = new Properties();
        try (InputStream in = open(location)) {
            if (in == null) {
                throw ConfigErrors.badValue(key, location, "not found on the class path");
            }
            try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
                props.load(reader);
            }
        } catch (NoSuchFileException e) {
            throw ConfigErrors.badValue(key, location, "no such file");
        } catch (IOException | IllegalArgumentException e) {
            throw SqlState.INVALID_PARAMETER_VALUE.exception(
                    "Invalid value '" + location + "' for " + key + ": cannot read it: " + e, e);
        }
        Map<String, String> out = new TreeMap<>();
        long foreign = props.stringPropertyNames().stream().filter(name -> !name.startsWith("repl.")).count();
        if (foreign > 0) {
            // never quote such a line: a file named by mistake (/etc/shadow) would leak its first secret
            throw SqlState.UNDEFINED_OBJECT.exception(key + "=" + location + " holds " + foreign + (foreign == 1 ? " line" : " lines")
                    + " that " + (foreign == 1 ? "is" : "are") + " not a repl.* key: the file may hold repl.* keys "
                    + "only (give the database driver's own properties in the URL or the connect Properties)");
        }
        for (String name : props.stringPropertyNames()) {
            if (name.equals(key)) {
                throw ConfigErrors.invalid(key + "=" + location + " sets " + key + " again: files do not nest");
            }
            out.put(name, props.getProperty(name));
        }
        return out;
    }

    private static InputStream open(String location) throws IOException {
        if (location.startsWith("file:")) {
            String path = location.substring("file:".length());
            Path file = path.startsWith("//") ? Path.of(URI.create(location)) : Path.of(path);
            return Files.newInputStream(file);
        }
        String name = location.substring("classpath:".length());
        name = name.startsWith("/") ? name.substring(1) : name;
        // the application's loader first (app servers), then the one that loaded the driver
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        InputStream in = context == null ? null : context.getResourceAsStream(name);
        if (in == null) {
            ClassLoader own = ConfigFile.class.getClassLoader();
            in = own == null ? ClassLoader.getSystemResourceAsStream(name) : own.getResourceAsStream(name);
        }
        return in;
    }
}

package io.jdbcrepl.cli;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.logging.Logger;

/**
 * The vendor drivers of the {@code lib/} folder beside the driver jar, for the command line:
 * {@code java -jar} puts nothing but the jar on the class path, and the build copies the vendor
 * drivers there (the demo needs H2, the other commands the driver of their {@code --url}).
 *
 * <p>They load in a class loader of their own, so DriverManager hides them from classes outside it;
 * each is registered behind a {@link Visible} wrapper, whose class DriverManager does show. A driver
 * the class path has already wins: the loader asks its parent first.
 */
final class VendorDrivers {

    private static boolean loaded;

    private VendorDrivers() {
    }

    /** Registers the drivers of {@code lib/} beside the jar holding this class, once; nothing when there is none. */
    static synchronized void registerBesideJar() {
        if (loaded) return;
        loaded = true;
        Path lib = besideJar();
        if (lib == null || !Files.isDirectory(lib)) return;
        List<URL> jars = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(lib, "*.jar")) {
            for (Path jar : files) jars.add(jar.toUri().toURL());
        } catch (IOException e) {
            return; // an unreadable lib/ folder: the class path is all there is, as without one
        }
        ClassLoader ours = VendorDrivers.class.getClassLoader();
        URLClassLoader loader = new URLClassLoader(jars.toArray(URL[]::new), ours);
        for (Driver driver : ServiceLoader.load(Driver.class, loader)) {
            if (driver.getClass().getClassLoader() != loader) continue; // on the class path already
            try {
                DriverManager.registerDriver(new Visible(driver));
            } catch (SQLException e) {
                throw new IllegalStateException("could not register " + driver.getClass().getName(), e);
            }
        }
    }

    private static Path besideJar() {
        CodeSource source = VendorDrivers.class.getProtectionDomain().getCodeSource();
        if (source == null) return null;
        try {
            Path jar = Path.of(source.getLocation().toURI());
            return Files.isRegularFile(jar) ? jar.resolveSibling("lib") : null;
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }

    /** A vendor driver from {@code lib/}, behind a class that DriverManager shows to everyone. */
    static final class Visible implements Driver {
        private final Driver driver;

        Visible(Driver driver) {
            this.driver = driver;
        }

        @Override
        public Connection connect(String url, Properties info) throws SQLException {
            return driver.connect(url, info);
        }

        @Override
        public boolean acceptsURL(String url) throws SQLException {
            return driver.acceptsURL(url);
        }

        @Override
        public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
            return driver.getPropertyInfo(url, info);
        }

        @Override
        public int getMajorVersion() {
            return driver.getMajorVersion();
        }

        @Override
        public int getMinorVersion() {
            return driver.getMinorVersion();
        }

        @Override
        public boolean jdbcCompliant() {
            return driver.jdbcCompliant();
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            return driver.getParentLogger();
        }

        @Override
        public String toString() {
            return driver.toString();
        }
    }
}

package io.jdbcrepl;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shaded jar's META-INF/NOTICE (src/main/shade/NOTICE) quotes Byte Buddy's notices, which
 * Apache-2.0 section 4(d) asks a redistribution to carry: a Byte Buddy upgrade that changes them
 * (its bundled ASM version, say) fails here until the quote follows.
 */
class NoticeTest {

    @Test
    void quotesByteBuddysNoticesAsTheyAreInTheJarItShades() throws IOException, URISyntaxException {
        String notice = Files.readString(Path.of("src/main/shade/NOTICE"));
        Path byteBuddy = Path.of(net.bytebuddy.ByteBuddy.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (JarFile jar = new JarFile(byteBuddy.toFile())) {
            assertThat(notice).as("Byte Buddy's META-INF/NOTICE, quoted in the driver's")
                    .contains(text(jar, "META-INF/NOTICE").strip());
            // Byte Buddy's LICENSE opens with a note on the ASM it bundles, before the Apache text
            String license = text(jar, "META-INF/LICENSE");
            String opening = license.substring(0, license.indexOf("Apache License")).strip();
            assertThat(opening).contains("ASM");
            assertThat(notice).as("the opening of Byte Buddy's META-INF/LICENSE, quoted in the driver's NOTICE")
                    .contains(opening);
        }
    }

    private static String text(JarFile jar, String name) throws IOException {
        try (InputStream in = jar.getInputStream(jar.getJarEntry(name))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\r\n", "\n");
        }
    }
}

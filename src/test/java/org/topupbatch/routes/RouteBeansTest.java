package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.topupbatch.config.TopupApplication;
import org.topupbatch.config.TopupWiring;

/**
 * Every bean a route file names ({@code ref: name} or {@code #name}) is bound by
 * the configuration classes ({@link TopupWiring}), so a route never meets a missing bean while running.
 */
class RouteBeansTest extends RouteTestSupport {

    private static final Pattern BEAN_NAME = Pattern.compile("ref:\\s*\"?([A-Za-z][A-Za-z0-9]*)|[=\"]#([A-Za-z][A-Za-z0-9]*+)(?!:)"); // not #class: or #type:

    @Override
    List<String> routes() {
        return List.of(); // binding alone is under test
    }

    /** Every route file a run with these settings loads: the ones its settings leave out are not. */
    @Test
    void every_bean_named_in_routes_is_bound() throws IOException {
        String excluded = TopupApplication.camelProperties(settings).getOrDefault("camel.main.routes-exclude-pattern", "");
        Set<String> named = beansNamedIn(Path.of("routes"), excluded);
        assertThat(named).as("bean names found in routes/*.yaml").contains("batchIntake", "inboxSnapshot", "submitWorkers");
        for (String name : named) {
            assertThat(context.getRegistry().lookupByName(name)).as("bean %s named in routes/", name).isNotNull();
        }
    }

    private static Set<String> beansNamedIn(Path folder, String excluded) throws IOException {
        Set<String> names = new TreeSet<>();
        try (var files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml"))
                    .filter(f -> !excluded.contains("**/" + f.getFileName())).toList()) {
                Matcher m = BEAN_NAME.matcher(Files.readString(file, StandardCharsets.UTF_8));
                while (m.find()) {
                    names.add(m.group(1) != null ? m.group(1) : m.group(2));
                }
            }
        }
        return names;
    }
}

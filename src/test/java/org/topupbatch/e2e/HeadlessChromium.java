package org.topupbatch.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.topupbatch.testing.FreePorts;

/**
 * A real headless browser for the dashboard tests (Debian's chromium with its chromedriver), started
 * when a test asks for it and quit after the test. Register it as an instance {@code @RegisterExtension}
 * field. Without chromium the test fails saying what to install: it never skips.
 */
final class HeadlessChromium implements AfterEachCallback {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private ChromeDriver browser;

    /**
     * Chromium as Debian installs it, started now with a fresh profile (a test names it in a field); Selenium
     * Manager is never asked to download anything.
     */
    ChromeDriver start() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new AssertionError("the dashboard test needs Debian's chromium and chromedriver (" + CHROMIUM + ", "
                    + CHROMEDRIVER + "): install them with 'apt-get install -y chromium chromium-driver' (.ci/run does)");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1280,720", "--user-data-dir=" + profile());
        // a port of this test JVM's own band: Selenium's "any free port" is drawn from 1024 to the
        // ephemeral range, so it can land in another test JVM's band, on a port picked there for a jar
        // that binds it seconds later ("Address already in use" in that jar)
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingPort(FreePorts.pick()).build();
        browser = new ChromeDriver(service, options);
        return browser;
    }

    private static Path profile() {
        try {
            return Files.createTempDirectory("dashboard-chromium");
        } catch (IOException e) {
            throw new UncheckedIOException("no folder for the browser's profile: " + e.getMessage(), e);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (browser != null) {
            browser.quit();
            browser = null;
        }
    }
}

console.log("chorus bench: no benchmarks yet");

console.log("Chorus bot: the gateway is not built yet (issue #9).");

// failure-memory CLI (filled by the engine issue).
console.log('failure-memory');

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { approachKey, approachLabel, matchesGlob, normalizeCwd, parseCommand, tokenize } from '../../src/core/approach';

function labels(cases: [string, string][]): void {
  for (const [line, label] of cases) assert.equal(approachLabel(line), label, `label of ${JSON.stringify(line)}`);
}

function same(pairs: [string, string][]): void {
  for (const [a, b] of pairs) assert.equal(approachKey(a), approachKey(b), `${JSON.stringify(a)} should be the same approach as ${JSON.stringify(b)}`);
}

function different(pairs: [string, string][]): void {
  for (const [a, b] of pairs) assert.notEqual(approachKey(a), approachKey(b), `${JSON.stringify(a)} should differ from ${JSON.stringify(b)}`);
}

void test('tokenize: quotes, escapes, operators and redirections', () => {
  assert.deepEqual(tokenize(`git commit -m "fix: a \\"quoted\\" thing" --author='Me <me@x>'`), ['git', 'commit', '-m', 'fix: a "quoted" thing', '--author=Me <me@x>']);
  assert.deepEqual(tokenize('npm ci&&npm test||echo failed;ls|wc -l'), ['npm', 'ci', '&&', 'npm', 'test', '||', 'echo', 'failed', ';', 'ls', '|', 'wc', '-l']);
  assert.deepEqual(tokenize('cat my\\ file.txt'), ['cat', 'my file.txt']);
  assert.deepEqual(tokenize('pytest > out.txt 2>&1'), ['pytest', '>', 'out.txt', '2>&1']);
  assert.deepEqual(tokenize('echo "" \'\''), ['echo', '', '']);
  assert.deepEqual(tokenize('npm   test\t\t--  -t   "my test"'), ['npm', 'test', '--', '-t', 'my test']);
  assert.deepEqual(tokenize('C:\\Users\\me\\bin\\tool.exe --x'), ['C:\\Users\\me\\bin\\tool.exe', '--x'], 'Windows paths keep their backslashes');
  assert.deepEqual(tokenize('make build # rebuild everything'), ['make', 'build']);
  assert.deepEqual(tokenize('docker run -v "$(pwd)":/app img'), ['docker', 'run', '-v', '$(pwd):/app', 'img']);
  assert.deepEqual(tokenize('echo $(git rev-parse --short HEAD) done'), ['echo', '$(git rev-parse --short HEAD)', 'done']);
  assert.deepEqual(tokenize('npm test \\\n  --coverage'), ['npm', 'test', '--coverage']);
  assert.deepEqual(tokenize(''), []);
  assert.deepEqual(tokenize('   '), []);
  assert.deepEqual(tokenize('echo "unterminated'), ['echo', 'unterminated']);
  assert.deepEqual(tokenize("echo 'unterminated"), ['echo', 'unterminated']);
});

void test('npm, pnpm, yarn and bun', () => {
  labels([
    ['npm install', 'npm install'],
    ['npm i', 'npm install'],
    ['npm install --legacy-peer-deps', 'npm install'],
    ['npm ci', 'npm ci'],
    ['npm install lodash', 'npm install lodash'],
    ['npm i -D typescript @types/node', 'npm install @types/node typescript'],
    ['npm test', 'npm test'],
    ['npm t', 'npm test'],
    ['npm run test', 'npm test'],
    ['npm run test -- --watch', 'npm test'],
    ['npm start', 'npm start'],
    ['npm run build', 'npm run build'],
    ['npm run build -- --mode production', 'npm run build'],
    ['npm run-script lint', 'npm run lint'],
    ['npm run test:unit', 'npm run test:unit'],
    ['npm --prefix web run build', 'npm run build'],
    ['npm -w packages/api test', 'npm test'],
    ['npm uninstall left-pad', 'npm uninstall left-pad'],
    ['npm create vite@latest my-app -- --template react', 'npm create vite@latest'],
    ['yarn', 'yarn install'],
    ['yarn install --frozen-lockfile', 'yarn install'],
    ['yarn add -D vitest', 'yarn add vitest'],
    ['yarn build', 'yarn run build'],
    ['yarn run build', 'yarn run build'],
    ['yarn test --watchAll=false', 'yarn test'],
    ['yarn jest --ci', 'jest'],
    ['yarn prisma generate', 'prisma generate'],
    ['yarn dlx create-next-app@latest', 'create-next-app'],
    ['pnpm i', 'pnpm install'],
    ['pnpm install --frozen-lockfile', 'pnpm install'],
    ['pnpm add zod', 'pnpm add zod'],
    ['pnpm build', 'pnpm run build'],
    ['pnpm --filter web build', 'pnpm run build'],
    ['pnpm -r test', 'pnpm test'],
    ['pnpm exec playwright test', 'playwright test'],
    ['pnpm dlx prisma generate', 'prisma generate'],
    ['bun install', 'bun install'],
    ['bun add hono', 'bun add hono'],
    ['bun test', 'bun test'],
    ['bun test src/x.test.ts', 'bun test'],
    ['bun run dev', 'bun run dev'],
    ['bun index.ts', 'bun index.ts'],
    ['bunx prisma db push', 'prisma db push'],
    ['bun x tsc --noEmit', 'tsc'],
  ]);
  same([
    ['npm install', 'npm i --legacy-peer-deps'],
    ['npm t', 'npm run test'],
    ['npm test', 'npm run test -- -t "adds numbers"'],
    ['yarn build', 'yarn run build'],
    ['pnpm build', 'pnpm run build --filter=web'],
    ['npm install react react-dom', 'npm install react-dom react'],
  ]);
  different([
    ['npm ci', 'npm install'],
    ['npm run build', 'npm run test'],
    ['npm install lodash', 'npm install'],
    ['npm install lodash', 'npm install lodash@4.17.21'],
    ['bun test', 'bun run test'],
    ['yarn add zod', 'yarn add yup'],
  ]);
});

void test('npx and other wrappers of the same tool', () => {
  labels([
    ['npx prisma generate', 'prisma generate'],
    ['npx prisma migrate dev --name init', 'prisma migrate dev'],
    ['npx -y prisma@5.10.0 generate', 'prisma generate'],
    ['npx --yes @nestjs/cli@10 build', '@nestjs/cli build'],
    ['./node_modules/.bin/prisma generate', 'prisma generate'],
    ['node_modules/.bin/jest --ci', 'jest'],
    ['node node_modules/.bin/jest --watch', 'jest'],
    ['node ./node_modules/typescript/bin/tsc -p .', 'tsc'],
    ['npm exec -- prisma generate', 'prisma generate'],
    ['npx tsc --noEmit -p .', 'tsc'],
    ['npx eslint . --fix', 'eslint'],
    ['npx jest --coverage src/a.test.ts', 'jest src/a.test.ts'], // the test file is the work
    ['npx vitest run src/math.test.ts', 'vitest src/math.test.ts'],
    ['npx playwright install --with-deps', 'playwright install'],
  ]);
  const p = parseCommand('npx -y prisma@5 generate');
  assert.deepEqual(p.wrappers, ['npx']);
  assert.equal(p.program, 'prisma');
  assert.deepEqual(p.significant, ['generate']);
  assert.deepEqual(parseCommand('./node_modules/.bin/jest').wrappers, ['./node_modules/.bin/']);
  same([
    ['prisma generate', 'npx prisma generate'],
    ['npx prisma generate', 'pnpm dlx prisma generate'],
    ['npx prisma generate', 'bunx prisma generate'],
    ['npx prisma generate', 'yarn dlx prisma generate'],
    ['npx prisma generate', 'pnpm exec prisma generate --schema=db/schema.prisma'],
    ['npx prisma generate', './node_modules/.bin/prisma generate'],
    ['jest', 'npx jest --watch'],
    ['tsc', 'npx tsc --noEmit -p .'],
    ['tsc', 'tsc --noEmit -p tsconfig.build.json'],
    ['eslint src', 'npx eslint . --ext .ts'],
  ]);
  different([
    ['prisma generate', 'prisma migrate dev'],
    ['prisma migrate dev', 'prisma migrate deploy'],
    ['npx prisma generate', 'npx prisma db push'],
  ]);
});

void test('python, pip, uv, poetry and pytest', () => {
  labels([
    ['pytest', 'pytest'],
    ['pytest -x -k "test_login and not slow" tests/', 'pytest'],
    ['python -m pytest -q', 'pytest'],
    ['python3 -m pytest tests/test_api.py::test_get -vv', 'pytest tests/test_api.py'], // the test file (not the node id)
    ['py -m pytest', 'pytest'],
    ['python3.11 -m pip install requests', 'pip install requests'],
    ['pip install numpy', 'pip install numpy'],
    ['pip3 install -r requirements.txt', 'pip install'],
    ['pip install -U pip', 'pip install pip'],
    ['pip install "numpy==1.26.4"', 'pip install numpy==1.26.4'],
    ['pip uninstall -y torch', 'pip uninstall torch'],
    ['python app.py', 'python app.py'],
    ['python3 ./scripts/train.py --epochs 5 --lr 0.1', 'python scripts/train.py'],
    ['python manage.py migrate', 'python manage.py migrate'],
    ['python manage.py test accounts', 'python manage.py test'],
    ['python -c "import torch; print(torch.__version__)"', 'python -c import:torch'], // a -c snippet is keyed by its imports
    ['python -m venv .venv', 'venv'],
    ['python -m http.server 8000', 'http.server'],
    ['/usr/bin/python3 app.py', 'python app.py'],
    ['.venv/bin/pytest -q', 'pytest'],
    ['uv run pytest -x', 'pytest'],
    ['uv run python -m pytest', 'pytest'],
    ['uv sync --all-extras', 'uv sync'],
    ['uv add httpx', 'uv add httpx'],
    ['uv pip install -e .', 'uv pip install'],
    ['uvx ruff check .', 'ruff check'],
    ['poetry install --no-root', 'poetry install'],
    ['poetry add pandas@^2.0', 'poetry add pandas@^2.0'],
    ['poetry run pytest', 'pytest'],
    ['pipenv run python manage.py test', 'python manage.py test'],
    ['coverage run -m pytest', 'pytest'],
    ['mypy src --strict', 'mypy'],
    ['ruff check --fix .', 'ruff check'],
    ['ruff format', 'ruff format'],
    ['alembic upgrade head', 'alembic upgrade'],
    ['flask --app app run --debug', 'flask run'],
    ['uvicorn main:app --reload --port 8000', 'uvicorn main:app'],
  ]);
  same([
    ['pytest', 'python -m pytest -q'],
    ['pytest', 'pytest -x -k foo tests/'],
    ['pytest tests/unit', 'pytest tests/integration --maxfail=1'],
    ['python -m pytest -q', 'poetry run pytest -vv'],
    ['pip install -r requirements.txt', 'pip install -r other.txt'],
    ['pip install numpy', 'pip3 install --upgrade numpy'],
    ['pip install numpy pandas', 'python -m pip install pandas numpy'],
    ['python app.py', 'python3 app.py --port 8080'],
    ['python app.py', 'python ./app.py'],
  ]);
  different([
    ['pip install numpy', 'pip install pandas'],
    ['pip install numpy', 'pip uninstall numpy'],
    ['python app.py', 'python other.py'],
    ['python manage.py migrate', 'python manage.py runserver'],
    ['pytest', 'python app.py'],
    // another test file is another approach; node ids and flags fold
    ['pytest tests/test_api.py', 'pytest tests/test_models.py'],
    ['uv add httpx', 'uv add requests'],
  ]);
});

void test('go, cargo, make, JVM and .NET builds', () => {
  labels([
    ['go test ./... -run TestLogin -count=1 -v', 'go test'],
    ['go build -o bin/app ./cmd/app', 'go build'],
    ['go mod tidy', 'go mod tidy'],
    ['go get github.com/stretchr/testify@v1.9.0', 'go get github.com/stretchr/testify@v1.9.0'],
    ['go run main.go', 'go run main.go'],
    ['cargo test', 'cargo test'],
    ['cargo test --release -p core -- --nocapture', 'cargo test'],
    ['cargo +nightly build -r', 'cargo build'],
    ['cargo b', 'cargo build'],
    ['cargo add serde --features derive', 'cargo add serde'],
    ['cargo clippy --all-targets -- -D warnings', 'cargo clippy'],
    ['make', 'make'],
    ['make clean', 'make clean'],
    ['make -j8 build', 'make build'],
    ['make -j 4 build CC=clang', 'make build'],
    ['make -C build test', 'make test'],
    ['make clean all', 'make clean all'],
    ['mvn clean install -DskipTests', 'mvn clean install'],
    ['mvn -q -pl api -am test', 'mvn test'],
    ['./mvnw spring-boot:run', 'mvn spring-boot:run'],
    ['./gradlew build', 'gradle build'],
    ['./gradlew :app:test --tests "com.example.FooTest"', 'gradle :app:test'],
    ['gradle clean build -x test', 'gradle clean build'],
    ['.\\gradlew.bat build', 'gradle build'],
    ['dotnet test --filter "Category=Unit"', 'dotnet test'],
    ['dotnet build -c Release', 'dotnet build'],
    ['dotnet run --project src/Api', 'dotnet run'],
    ['dotnet ef database update', 'dotnet ef database update'],
    ['dotnet add package Newtonsoft.Json --version 13.0.3', 'dotnet add package Newtonsoft.Json'],
    ['java -jar target/app.jar --server.port=9000', 'java target/app.jar'],
  ]);
  same([
    ['cargo test', 'cargo test --release'],
    ['cargo test', 'cargo t -p mycrate'],
    ['go test ./...', 'go test ./pkg/auth -run TestLogin'],
    ['make build', 'make -j8 build'],
    ['mvn test', 'mvn -Dtest=FooTest test'],
    ['gradle test', './gradlew test --tests FooTest'],
    ['dotnet test', 'dotnet test tests/Api.Tests.csproj --logger trx'],
  ]);
  different([
    ['cargo test', 'cargo build'],
    ['go test ./...', 'go build ./...'],
    ['make', 'make clean'],
    ['make build', 'make test'],
    ['mvn test', 'mvn package'],
    ['cargo add serde', 'cargo add tokio'],
    ['dotnet build', 'dotnet test'],
  ]);
});

void test('git, docker, kubectl, helm and terraform', () => {
  labels([
    ['git push', 'git push'],
    // where a push goes is the work (remote and branch); flags still fold
    ['git push origin main --force-with-lease', 'git push origin main'],
    ['git -C packages/api status', 'git status'],
    ['git commit -m "feat: add login"', 'git commit'],
    ['git commit -am "wip"', 'git commit'],
    ['git checkout -b feature/login', 'git checkout'],
    ['git stash pop', 'git stash pop'],
    ['git -c core.pager=cat log --oneline -n 5', 'git log'],
    ['git remote add origin git@github.com:me/repo.git', 'git remote add'],
    ['docker build -t myapp:latest .', 'docker build'],
    ['docker build -f Dockerfile.dev .', 'docker build'],
    ['docker compose up -d --build', 'docker compose up'],
    ['docker compose -f docker-compose.prod.yml up', 'docker compose up'],
    ['docker-compose up', 'docker compose up'],
    ['docker compose run --rm web npm test', 'docker compose run web'],
    ['docker run -it --rm -v "$(pwd)":/app -w /app -p 3000:3000 node:20 npm test', 'docker run node:20'],
    ['docker exec -it db psql -U postgres', 'docker exec db'],
    ['kubectl apply -f k8s/', 'kubectl apply k8s/'], // the applied file or folder
    ['kubectl get pods -n prod -o wide', 'kubectl get pods'],
    ['kubectl -n prod get pods', 'kubectl get pods'],
    ['kubectl logs -f deploy/api', 'kubectl logs'],
    ['kubectl rollout status deployment/api', 'kubectl rollout status'],
    ['helm upgrade --install api ./chart -f values.yaml -n prod', 'helm upgrade'],
    ['terraform plan -var-file=prod.tfvars -out plan.tfplan', 'terraform plan'],
    ['terraform -chdir=infra apply -auto-approve', 'terraform apply'],
    ['terraform init -upgrade', 'terraform init'],
    ['tofu plan', 'tofu plan'],
    ['aws s3 cp build/ s3://bucket --recursive', 'aws s3 cp'],
  ]);
  same([
    ['git commit -m "x"', 'git commit -m "y"'],
    ['docker compose up', 'docker-compose up -d'],
    ['docker compose up', 'docker compose -f other.yml up --build'],
    ['terraform apply', 'terraform apply -auto-approve -var "region=eu-west-1"'],
  ]);
  different([
    // keys keep the arguments that are the work: the push target, the applied file
    ['git push origin main', 'git push origin feature'],
    ['kubectl apply -f a.yaml', 'kubectl apply -f b.yaml'],
    ['git push', 'git pull'],
    ['docker compose up', 'docker build .'],
    ['docker compose up', 'docker compose down'],
    ['kubectl apply -f x.yaml', 'kubectl get pods'],
    ['kubectl get pods', 'kubectl get svc'],
    ['terraform plan', 'terraform apply'],
    ['docker run node:20', 'docker run python:3.12'],
  ]);
});

void test('ruby, php, system package managers, JS test and build tools', () => {
  labels([
    // a test file is the work of a test runner
    ['bundle exec rspec spec/models/user_spec.rb', 'rspec spec/models/user_spec.rb'],
    ['bundle exec rake db:migrate', 'rake db:migrate'],
    ['bundle install', 'bundle install'],
    ['bin/rails test test/models', 'rails test'],
    ['rails db:migrate', 'rails db:migrate'],
    ['rails g model User name:string', 'rails generate model'],
    ['rspec --format documentation', 'rspec'],
    ['php artisan migrate --force', 'php artisan migrate'],
    ['composer require guzzlehttp/guzzle', 'composer require guzzlehttp/guzzle'],
    ['vendor/bin/phpunit --filter FooTest', 'phpunit'],
    ['sudo apt-get install -y libpq-dev', 'apt-get install libpq-dev'],
    ['sudo -E apt-get update', 'apt-get update'],
    ['apt install -y curl git', 'apt install curl git'],
    ['brew install postgresql@16', 'brew install postgresql@16'],
    ['brew services start postgresql', 'brew services start'],
    ['jest --watch', 'jest'],
    ['vitest run --coverage', 'vitest'],
    ['tsc --noEmit -p .', 'tsc'],
    ['tsc -b', 'tsc'],
    ['eslint "src/**/*.ts"', 'eslint'],
    ['next build', 'next build'],
    ['vite build --mode staging', 'vite build'],
    ['node --inspect app.js', 'node app.js'],
    ['node server.js', 'node server.js'],
    // an -e snippet is keyed by its imports, else its first statement
    ['node -e "console.log(1)"', 'node -e console.log(1)'],
    ['node --test test/', 'node'],
    ['ts-node src/index.ts', 'ts-node src/index.ts'],
    ['tsx watch src/index.ts', 'tsx watch src/index.ts'],
    ['deno run -A main.ts', 'deno run main.ts'],
    ['deno task dev', 'deno task dev'],
    ['bash build.sh', 'bash build.sh'],
    ['sh -x ./scripts/ci.sh', 'sh scripts/ci.sh'],
    ['./scripts/deploy.sh', 'scripts/deploy.sh'],
    ['./deploy.sh --dry-run', 'deploy.sh'],
    ['./manage.py migrate', 'manage.py migrate'],
    ['python train.py --data input', 'python train.py'],
    ['mytool deploy --env prod', 'mytool deploy'],
    ['psql -U postgres -c "select 1"', 'psql'],
    ['ls -la src', 'ls'],
  ]);
  same([
    ['rspec', 'bundle exec rspec spec/models'],
    ['node --inspect app.js', 'node app.js'],
    ['./scripts/deploy.sh', 'scripts/deploy.sh --verbose'],
    ['sudo apt-get install -y libpq-dev', 'apt-get install libpq-dev'],
  ]);
  different([
    ['node --inspect app.js', 'node server.js'],
    ['bash build.sh', 'bash deploy.sh'],
    ['brew install node', 'brew install python'],
    ['rails test', 'rails db:migrate'],
  ]);
});

void test('environment assignments and wrappers are peeled', () => {
  const p = parseCommand('NODE_ENV=test DEBUG="app:*" npm test');
  assert.deepEqual(p.env, ['NODE_ENV', 'DEBUG']);
  assert.equal(p.label, 'npm test');
  const s = parseCommand('sudo -u deploy time nice -n 10 make build');
  assert.deepEqual(s.wrappers, ['sudo', 'time', 'nice']);
  assert.equal(s.label, 'make build');
  labels([
    ['env -i PATH=/usr/bin make', 'make'],
    ['cross-env NODE_ENV=production webpack --config webpack.prod.js', 'webpack'],
    ['dotenv -e .env.test -- jest --runInBand', 'jest'],
    ['timeout 30 npm test', 'npm test'],
    ['timeout -s KILL 5m make test', 'make test'],
    ['nohup node server.js', 'node server.js'],
    ['time pytest', 'pytest'],
    ['mise exec node@20 -- npm test', 'npm test'],
    ['op run --env-file=.env -- npm start', 'npm start'],
    ['bash -c "npm test"', 'npm test'],
    ['sh -lc "pnpm install"', 'pnpm install'],
    ['cmd /c npm run build', 'npm run build'],
    ['powershell -NoProfile -Command "npm test"', 'npm test'],
    ['pwsh -File ./build.ps1', 'pwsh build.ps1'],
    ['"C:\\Program Files\\nodejs\\npm.cmd" test', 'npm test'],
    ['C:\\Python312\\python.exe -m pytest', 'pytest'],
    ['NPM.CMD test', 'npm test'],
    ['sudo', 'sudo'],
    ['npx', 'npx'],
    ['python', 'python'],
  ]);
  same([
    ['npm test', 'NODE_ENV=test npm test'],
    ['npm test', 'CI=1 FORCE_COLOR=0 npm test'],
    ['jest', 'cross-env NODE_ENV=test jest --ci'],
    ['make', 'time make'],
    ['npm test', 'timeout 30 npm test'],
    ['apt-get update', 'sudo apt-get update'],
    ['npm test', 'bash -c "npm test"'],
    ['pytest', 'uv run pytest'],
  ]);
});

void test('quoting and spacing never change the approach', () => {
  same([
    ['npm run build', 'npm  run   build'],
    ['npm run build', 'npm run "build"'],
    ['npm run build', "npm run 'build'"],
    ['npm run build', '  npm run build  '],
    ['npm run build', '"npm" run build'],
    ['git commit -m "a b c"', "git commit -m 'd e f'"],
    ['pytest -k "a or b"', 'pytest -k a'],
  ]);
});

void test('compound lines: the last real command, cd folded into the folder', () => {
  labels([
    ['npm ci && npm test', 'npm test'],
    ['npm run build && npm start', 'npm start'],
    ['npm test || true', 'npm test'],
    ['npm test && echo "all good"', 'npm test'],
    ['source .venv/bin/activate && pytest', 'pytest'],
    ['export CI=1; npm test', 'npm test'],
    ['make clean; make', 'make'],
    ['npm test 2>&1 | tee test.log', 'npm test'],
    ['pytest > out.txt 2>&1', 'pytest'],
    ['make 2> errors.log', 'make'],
    ['npm run build>build.log', 'npm run build'],
    ['cat input.txt | node app.js', 'node app.js'],
    ['echo y | npx prisma migrate reset', 'prisma migrate reset'],
    ['npm test | grep -v WARN', 'npm test'],
    ['(cd web && npm run build)', 'npm run build'],
    ['if npm test; then echo ok; fi', 'npm test'],
    ['cd frontend', 'cd'],
    ['echo hello', 'echo'],
    ['cat <<EOF > .env\nA=1\nEOF\nnpm test', 'npm test'],
  ]);
  const p = parseCommand('cd packages/api && npm test');
  assert.equal(p.cwdChange, 'packages/api');
  assert.equal(p.label, 'npm test');
  assert.equal(parseCommand('cd a && cd b/c && make').cwdChange, 'a/b/c');
  assert.equal(parseCommand('cd a && cd .. && make').cwdChange, undefined);
  assert.equal(parseCommand('npm test').cwdChange, undefined);
  assert.equal(parseCommand('bash -c "cd api && make test"').cwdChange, 'api');

  assert.equal(approachKey('cd frontend && npm test'), 'frontend::npm test');
  assert.equal(approachKey('cd frontend && npm test', '.'), approachKey('npm test', 'frontend'));
  assert.equal(approachKey('cd api; cargo test', 'services'), 'services/api::cargo test');
  assert.equal(approachKey('cd .. && make', 'a/b'), 'a::make');
  assert.equal(approachKey('cd ./x/../y && make', 'a'), 'a/y::make');
  assert.equal(approachKey('cd /tmp/build && make', 'a'), '/tmp/build::make');
  assert.equal(approachKey('cd /d D:\\proj && npm test'), 'd:/proj::npm test');
  assert.equal(approachKey('npm test', 'web'), 'web::npm test');
  assert.equal(approachKey('npm test'), '.::npm test');
  assert.notEqual(approachKey('npm test', 'web'), approachKey('npm test', 'api'));
  assert.notEqual(approachKey('cd web && npm test'), approachKey('npm test'));
  same([
    ['npm ci && npm test', 'npm test'],
    ['npm test 2>&1 | tee log', 'npm test'],
    ['npm test > out.txt', 'npm test'],
  ]);
});

void test('normalizeCwd', () => {
  assert.equal(normalizeCwd(undefined), '.');
  assert.equal(normalizeCwd(''), '.');
  assert.equal(normalizeCwd('   '), '.');
  assert.equal(normalizeCwd('.'), '.');
  assert.equal(normalizeCwd('./'), '.');
  assert.equal(normalizeCwd('./a/../b'), 'b');
  assert.equal(normalizeCwd('a/b/'), 'a/b');
  assert.equal(normalizeCwd('a\\b\\c'), 'a/b/c');
  assert.equal(normalizeCwd('a//b/./c'), 'a/b/c');
  assert.equal(normalizeCwd('a/..'), '.');
  assert.equal(normalizeCwd('../x'), '../x');
  assert.equal(normalizeCwd('/home/me/proj/'), '/home/me/proj');
  assert.equal(normalizeCwd('C:\\work\\proj'), 'c:/work/proj');
  assert.equal(normalizeCwd('~/proj'), '~/proj');
});

void test('matchesGlob for the ignoreCommands setting', () => {
  const globs = ['git *', 'ls*', 'cd *', 'clear'];
  assert.equal(matchesGlob('git status', globs), true);
  assert.equal(matchesGlob('  git log --oneline  ', globs), true);
  assert.equal(matchesGlob('ls', globs), true);
  assert.equal(matchesGlob('ls -la', globs), true);
  assert.equal(matchesGlob('cd src', globs), true);
  assert.equal(matchesGlob('clear', globs), true);
  assert.equal(matchesGlob('CLEAR', globs), true);
  assert.equal(matchesGlob('npm test', globs), false);
  assert.equal(matchesGlob('gitk', globs), false);
  assert.equal(matchesGlob('clear && npm test', globs), false);
  assert.equal(matchesGlob('sudo git pull', globs), true, 'matched against the label too');
  assert.equal(matchesGlob('npm test', ['npm t?st']), true);
  assert.equal(matchesGlob('npm test', ['npm t?t']), false);
  assert.equal(matchesGlob('npx prisma generate', ['prisma *']), true);
  assert.equal(matchesGlob('anything at all', ['*']), true);
  assert.equal(matchesGlob('npm test', []), false);
  assert.equal(matchesGlob('npm test', ['', '   ']), false);
  assert.equal(matchesGlob('a'.repeat(100_000), ['*a*b*c*d*e*']), false);
});

void test('garbage, empty and huge input never throw', () => {
  assert.equal(approachLabel(''), '');
  assert.equal(approachLabel('   \t  '), '');
  assert.equal(approachLabel('\n\n'), '');
  assert.equal(approachLabel('# just a comment'), '');
  assert.equal(approachLabel('&& || ;'), '');
  assert.equal(approachLabel('> out.txt'), '');
  assert.equal(approachLabel('FOO=1'), '');
  assert.deepEqual(parseCommand(''), { env: [], wrappers: [], program: '', significant: [], label: '' });
  assert.equal(approachKey(''), '.::');
  assert.equal(approachLabel('echo "unbalanced'), 'echo');
  assert.equal(approachLabel("npm run 'build"), 'npm run build');
  assert.equal(approachLabel('npm test $(echo'), 'npm test');
  assert.equal(approachLabel('\u0000\u0001npm\u0007 test\u001b'), 'npm test');
  // untyped callers
  assert.equal(approachLabel(undefined as unknown as string), '');
  assert.equal(approachKey(42 as unknown as string, null as unknown as string), '.::');
  assert.deepEqual(tokenize(null as unknown as string), []);
  assert.equal(matchesGlob('git status', 'git *' as unknown as string[]), false);

  let seed = 42;
  const rand = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const alphabet = ' \t\n"\'\\&|;<>()$`#=-/*?{}!~abcXYZ019.\u0000\u00ff\ud83d';
  for (let k = 0; k < 3000; k++) {
    let s = '';
    const len = Math.floor(rand() * 80);
    for (let j = 0; j < len; j++) s += alphabet[Math.floor(rand() * alphabet.length)];
    assert.doesNotThrow(() => {
      parseCommand(s);
      approachKey(s, s);
      tokenize(s);
      matchesGlob(s, [s, '*?*']);
      normalizeCwd(s);
    }, JSON.stringify(s));
  }

  const started = Date.now();
  const huge = [
    'npm install ' + 'x'.repeat(100_000),
    'a && '.repeat(20_000) + 'npm test',
    'cd a && '.repeat(12_000) + 'make',
    '"'.repeat(100_001),
    '$('.repeat(50_000),
    'sudo '.repeat(20_000) + 'make',
    'x | '.repeat(25_000),
    '\\'.repeat(100_000),
  ];
  for (const line of huge) {
    const p = parseCommand(line);
    assert.ok(p.label.length <= 2_000, 'labels stay bounded');
  }
  assert.equal(approachLabel('a && '.repeat(20_000) + 'npm test'), 'npm test');
  assert.equal(parseCommand('cd a && '.repeat(12_000) + 'make').label, 'make');
  assert.ok(Date.now() - started < 5_000, `huge lines are parsed quickly (${Date.now() - started} ms)`);
});

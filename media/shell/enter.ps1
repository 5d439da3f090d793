# Failure Memory's Enter gate for PowerShell 7 (PSReadLine) in VS Code's terminal: Enter first asks
# the extension whether the line may run; a line of an exhausted approach with nothing changed since
# its last failure is not run (it goes to the history: Up brings it back), one line says why, and
# VS Code shows the help dialog. PowerShell has no environment hook an extension can use, so it is
# loaded by one line in your profile (code $PROFILE):
#   if ($env:FAILURE_MEMORY_ENTER_PS1) { . $env:FAILURE_MEMORY_ENTER_PS1 }
# The exchange is the one of ask.bash (core/enterProtocol.ts), over .NET's TcpClient.

if ($Global:__fmEnter -or -not (Get-Module PSReadLine)) { return }
$Global:__fmEnter = $true
$Global:__fmEnterSkipUntil = [DateTime]::MinValue

function Global:__fmEnterAsk([string]$Line) {
    $file = $env:FAILURE_MEMORY_ENTER
    if (-not $file -or -not (Test-Path -LiteralPath $file)) { return $null }
    if ([DateTime]::UtcNow -lt $Global:__fmEnterSkipUntil) { return $null }
    $f = ((Get-Content -LiteralPath $file -TotalCount 1) -split ' ')
    if ($f.Count -lt 5 -or $f[0] -ne 'FM1') { return $null }
    $client = [System.Net.Sockets.TcpClient]::new()
    try {
        $client.NoDelay = $true
        if (-not $client.ConnectAsync('127.0.0.1', [int]$f[1]).Wait(500)) { return $null }
        $stream = $client.GetStream()
        $stream.ReadTimeout = 1000
        $reader = [System.IO.StreamReader]::new($stream, [System.Text.UTF8Encoding]::new($false))
        # the server speaks first: a line goes only to the window that wrote the file
        if ($reader.ReadLine() -ne "FM1 $($f[3])") { return $null }
        $cwd = $PWD.ProviderPath
        $request = [System.Text.Encoding]::UTF8.GetBytes("$($f[2])`0$PID`0pwsh`0$cwd`0`0$Line`0")
        $stream.Write($request, 0, $request.Length)
        $stream.ReadTimeout = [int]([double]::Parse($f[4], [System.Globalization.CultureInfo]::InvariantCulture) * 1000)
        $reply = $reader.ReadLine()
        if ($reply -and $reply.StartsWith('block ')) { return $reply.Substring(6) }
        return $null
    } catch [System.IO.IOException] {
        # no answer in time: the line runs, and the gate rests for 30 s
        $Global:__fmEnterSkipUntil = [DateTime]::UtcNow.AddSeconds(30)
        return $null
    } catch {
        return $null
    } finally {
        $client.Dispose()
    }
}

Set-PSReadLineKeyHandler -Chord Enter -BriefDescription FailureMemoryEnter -Description 'Failure Memory: check the line, then accept it' -ScriptBlock {
    param($key, $arg)
    $line = $null
    $cursor = $null
    [Microsoft.PowerShell.PSConsoleReadLine]::GetBufferState([ref]$line, [ref]$cursor)
    if ($line.Trim()) {
        $message = __fmEnterAsk $line
        if ($message) {
            [Microsoft.PowerShell.PSConsoleReadLine]::AddToHistory($line)
            [Microsoft.PowerShell.PSConsoleReadLine]::RevertLine()
            [Console]::Error.WriteLine()
            [Console]::Error.WriteLine($message)
            [Microsoft.PowerShell.PSConsoleReadLine]::InvokePrompt()
            return
        }
    }
    [Microsoft.PowerShell.PSConsoleReadLine]::AcceptLine()
}

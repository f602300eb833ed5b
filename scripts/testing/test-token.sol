// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A bare ERC-20 for tests: its deployer holds the whole supply. `transfer` returns
/// nothing when `quiet` (as USDT's does), true otherwise.
contract TestToken {
    mapping(address => uint256) public balanceOf;
    bool public immutable quiet;

    constructor(uint256 supply, bool quiet_) {
        balanceOf[msg.sender] = supply;
        quiet = quiet_;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        require(balanceOf[msg.sender] >= amount, "balance");
        balanceOf[msg.sender] -= amount;
        balanceOf[to] += amount;
        if (quiet) {
            assembly {
                return(0, 0)
            }
        }
        return true;
    }
}
